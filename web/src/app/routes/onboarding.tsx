import { useNavigate } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';
import { OnboardingWizard } from '@/features/onboarding/components/onboarding-wizard';
import { onboardingProgress } from '@/features/onboarding/lib/progress';
import { PayoutDestinationCard, usePayoutDestination } from '@/features/payouts';
import { SampleProductForm, useMyProducts } from '@/features/products';
import { PageSpinner } from '@/features/products/components/page-spinner';

const FIRST_PRODUCT_FORM = 'onboarding-first-product';

export default function OnboardingRoute() {
  const { profile } = useSession();
  const destination = usePayoutDestination();
  const products = useMyProducts();
  const navigate = useNavigate();
  // A seller coming back opens where they left off, so wait for what they have done.
  const loaded = !destination.isPending && !products.isPending;
  const progress = onboardingProgress({
    role: profile?.role,
    destinationSaved: Boolean(destination.data),
    hasProduct: (products.data?.length ?? 0) > 0,
  });
  return (
    <>
      <Seo
        title="Get started — Lockdrop"
        description="Set up your Lockdrop account in three steps."
      />
      {loaded ? (
        <OnboardingWizard
          initialStep={progress.firstOpenStep}
          payoutDestination={<PayoutDestinationCard />}
          destinationSaved={Boolean(destination.data)}
          firstProductFormId={FIRST_PRODUCT_FORM}
          firstProduct={
            <SampleProductForm
              formId={FIRST_PRODUCT_FORM}
              onCreated={() => navigate(paths.dashboard.root.getHref())}
            />
          }
        />
      ) : (
        <PageSpinner label="Loading your setup" />
      )}
    </>
  );
}

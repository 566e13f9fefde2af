import { useNavigate } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { paths } from '@/config/paths';
import { OnboardingWizard } from '@/features/onboarding/components/onboarding-wizard';
import { PayoutDestinationCard, usePayoutDestination } from '@/features/payouts';
import { SampleProductForm } from '@/features/products';

const FIRST_PRODUCT_FORM = 'onboarding-first-product';

export default function OnboardingRoute() {
  const destination = usePayoutDestination();
  const navigate = useNavigate();
  return (
    <>
      <Seo
        title="Get started — Lockdrop"
        description="Set up your Lockdrop account in three steps."
      />
      <OnboardingWizard
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
    </>
  );
}

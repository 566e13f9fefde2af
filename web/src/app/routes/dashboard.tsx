import { Seo } from '@/components/seo/seo';
import { ChoosePlanButton, useSubscriberFigures } from '@/features/billing';
import { DashboardHome } from '@/features/dashboard';
import { ResumeOnboardingNotice } from '@/features/onboarding/components/resume-onboarding-notice';
import { ConfirmPayoutNotice, usePayoutDestination } from '@/features/payouts';
import { ShareLinkPanel, useMyProducts, useUploadUsage } from '@/features/products';
import { useLocation } from 'react-router-dom';

/** What /create-product hands over after "Publish now". */
interface DashboardState {
  liveProduct?: { id: string; title: string };
}

export default function HomeDashboardRoute() {
  const { liveProduct } = (useLocation().state ?? {}) as DashboardState;
  const products = useMyProducts();
  const uploadUsage = useUploadUsage();
  const subscriberFigures = useSubscriberFigures();
  const destination = usePayoutDestination();
  return (
    <>
      <Seo
        title="Dashboard — Lockdrop"
        description="Your sales, views and deliveries at a glance."
      />
      <DashboardHome
        onboardingNotice={
          <ResumeOnboardingNotice
            loaded={destination.isSuccess && products.isSuccess}
            destinationSaved={Boolean(destination.data)}
            hasProduct={(products.data?.length ?? 0) > 0}
          />
        }
        shareNotice={liveProduct && <ShareLinkPanel product={liveProduct} />}
        payoutNotice={<ConfirmPayoutNotice />}
        upgradeButton={
          <ChoosePlanButton
            plan="pro"
            interval="monthly"
            label="Upgrade to Pro"
            className="w-full"
          />
        }
        products={products}
        uploadUsage={uploadUsage}
        subscriberFigures={subscriberFigures}
      />
    </>
  );
}

import { Seo } from '@/components/seo/seo';
import { ChoosePlanButton, useSubscriberFigures } from '@/features/billing';
import { DashboardHome } from '@/features/dashboard';
import { ResumeOnboardingNotice } from '@/features/onboarding/components/resume-onboarding-notice';
import { ConfirmPayoutNotice, usePayoutDestination } from '@/features/payouts';
import { useMyProducts, useUploadUsage } from '@/features/products';

export default function HomeDashboardRoute() {
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

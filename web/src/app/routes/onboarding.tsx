import { Seo } from '@/components/seo/seo';
import { OnboardingWizard } from '@/features/onboarding/components/onboarding-wizard';
import { PayoutDestinationCard, usePayoutDestination } from '@/features/payouts';

export default function OnboardingRoute() {
  const destination = usePayoutDestination();
  return (
    <>
      <Seo
        title="Get started — Lockdrop"
        description="Set up your Lockdrop account in three steps."
      />
      <OnboardingWizard
        payoutDestination={<PayoutDestinationCard />}
        destinationSaved={Boolean(destination.data)}
      />
    </>
  );
}

import { Seo } from '@/components/seo/seo';
import { OnboardingWizard } from '@/features/onboarding/components/onboarding-wizard';

export default function OnboardingRoute() {
  return (
    <>
      <Seo
        title="Get started — Lockdrop"
        description="Set up your Lockdrop account in three steps."
      />
      <OnboardingWizard />
    </>
  );
}

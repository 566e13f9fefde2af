import { PlanBillingSection } from '@/features/billing';
import { SettingsCard } from './settings-card';

/** The plan is paid for and changed through billing (payments); the profile only mirrors it. */
export function PlanSection() {
  return (
    <div id="plan" className="scroll-mt-24">
      <SettingsCard id="settings-plan" title="Plan">
        <PlanBillingSection />
      </SettingsCard>
    </div>
  );
}

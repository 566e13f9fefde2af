import type { ReactNode } from 'react';
import { SettingsCard } from './settings-card';

/** The plan is paid for and changed through billing (payments); the profile only mirrors it. */
export function PlanSection({ billing }: { billing: ReactNode }) {
  return (
    <div id="plan" className="scroll-mt-24">
      <SettingsCard id="settings-plan" title="Plan">
        {billing}
      </SettingsCard>
    </div>
  );
}

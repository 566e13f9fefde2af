import type { ReactNode } from 'react';
import { SettingsCard } from './settings-card';

/** `destination`: the payouts feature's destination card, composed in by the route. */
export function PayoutSection({ destination }: { destination: ReactNode }) {
  return (
    <SettingsCard
      id="settings-payout"
      title="Payouts"
      description="Where your earnings are sent. Account numbers are encrypted and shown masked."
    >
      {destination}
    </SettingsCard>
  );
}

import { PayoutDestinationCard } from '@/features/payouts';
import { SettingsCard } from './settings-card';

export function PayoutSection() {
  return (
    <SettingsCard
      id="settings-payout"
      title="Payouts"
      description="Where your earnings are sent. Account numbers are encrypted and shown masked."
    >
      <PayoutDestinationCard />
    </SettingsCard>
  );
}

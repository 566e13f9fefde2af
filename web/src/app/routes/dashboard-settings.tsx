import { Seo } from '@/components/seo/seo';
import { ChoosePlanButton } from '@/features/billing';
import { DashboardSettings } from '@/features/dashboard';

export default function SettingsDashboardRoute() {
  return (
    <>
      <Seo title="Dashboard settings — Lockdrop" description="Your plan and account settings." />
      <DashboardSettings
        upgradeButton={<ChoosePlanButton plan="pro" interval="monthly" label="Upgrade to Pro" />}
      />
    </>
  );
}

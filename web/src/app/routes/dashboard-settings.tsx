import { Seo } from '@/components/seo/seo';
import { DashboardSettings } from '@/features/dashboard';

export default function SettingsDashboardRoute() {
  return (
    <>
      <Seo title="Dashboard settings — Lockdrop" description="Your plan and account settings." />
      <DashboardSettings />
    </>
  );
}

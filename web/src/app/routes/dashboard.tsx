import { Seo } from '@/components/seo/seo';
import { DashboardHome } from '@/features/dashboard';

export default function HomeDashboardRoute() {
  return (
    <>
      <Seo
        title="Dashboard — Lockdrop"
        description="Your sales, views and deliveries at a glance."
      />
      <DashboardHome />
    </>
  );
}

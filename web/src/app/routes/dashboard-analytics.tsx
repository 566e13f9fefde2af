import { Seo } from '@/components/seo/seo';
import { AnalyticsScreen } from '@/features/dashboard';

export default function AnalyticsDashboardRoute() {
  return (
    <>
      <Seo
        title="Analytics — Lockdrop"
        description="Views, sales and downloads of your products, day by day."
      />
      <AnalyticsScreen />
    </>
  );
}

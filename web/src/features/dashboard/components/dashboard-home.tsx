import { useSession } from '@/features/auth';
import { ConfirmPayoutNotice } from '@/features/payouts';
import { PlanCard } from './plan-card';
import { QuickActions } from './quick-actions';
import { RecentProducts } from './recent-products';
import { RecentSales } from './recent-sales';
import { StatCards } from './stat-cards';
import { SubscribersCard } from './subscribers-card';

/** /dashboard and /lockdrop/dashboard: the signed-in seller's real figures (last 30 days). */
export function DashboardHome() {
  const { profile } = useSession();
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">
          Welcome back, {profile?.fullName || 'Creator'}
        </h1>
        <p className="mt-1 text-sm text-slate-600">Your figures for the last 30 days.</p>
      </header>
      <ConfirmPayoutNotice />
      <StatCards days={30} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <RecentProducts />
          <RecentSales />
        </div>
        <div className="space-y-6">
          <PlanCard />
          <SubscribersCard />
        </div>
      </div>
      <QuickActions />
    </div>
  );
}

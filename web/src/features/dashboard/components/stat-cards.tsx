import { Eye, PackageCheck, TrendingUp, Wallet } from 'lucide-react';
import { useOverview, type Overview } from '../api/get-overview';
import { countOf, describeChange, formatCount, formatMoney, formatPercent } from '../lib/format';
import { LoadError, Loading } from '@/components/ui/panel';
import { StatCard } from './stat-card';

function revenueCard(overview: Overview) {
  const [first, ...others] = overview.revenue;
  if (!first)
    return { value: formatMoney(0, 'USD'), change: describeChange(null, 0, overview.days) };
  return {
    value: formatMoney(first.netMinor, first.currency),
    // Currencies are never added together: each one is its own line.
    detail: others.length
      ? `Also ${others.map((figure) => formatMoney(figure.netMinor, figure.currency)).join(', ')}`
      : 'Your earnings after fees and refunds',
    change: describeChange(first.changePercent, first.netMinor, overview.days),
  };
}

/** Revenue, content views, deliveries and unlock rate from GET /api/analytics/overview. */
export function StatCards({ days = 30 }: { days?: number }) {
  const overview = useOverview(days);
  if (overview.isPending) return <Loading label="Loading your figures" />;
  if (overview.isError) return <LoadError what="your figures" />;
  const figures = overview.data;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard name="Revenue" icon={Wallet} {...revenueCard(figures)} />
      <StatCard
        name="Content views"
        icon={Eye}
        value={formatCount(figures.views.value)}
        detail={countOf(figures.uniqueVisitors.value, 'unique visitor')}
        change={describeChange(figures.views.changePercent, figures.views.value, days)}
      />
      <StatCard
        name="Deliveries"
        icon={PackageCheck}
        value={formatCount(figures.sales.value)}
        detail={countOf(figures.downloads.value, 'download')}
        change={describeChange(figures.sales.changePercent, figures.sales.value, days)}
      />
      <StatCard
        name="Unlock rate"
        icon={TrendingUp}
        value={formatPercent(figures.unlockRate.value)}
        detail="Sales per unique visitor"
        change={describeChange(figures.unlockRate.changePercent, figures.unlockRate.value, days)}
      />
    </div>
  );
}

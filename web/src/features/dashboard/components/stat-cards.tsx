import { Eye, FlaskConical, PackageCheck, TrendingUp, Wallet } from 'lucide-react';
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

/**
 * Sandbox or test-key sales, said apart: they are in none of the cards (no real money moved), so
 * a seller testing their link sees them without reading them as revenue or a payout to come.
 */
function TestSalesNote({ overview }: { overview: Overview }) {
  const tested = overview.testSales.filter((figure) => figure.sales > 0);
  if (!tested.length) return null;
  const count = tested.reduce((total, figure) => total + figure.sales, 0);
  const refunds = tested.reduce((total, figure) => total + figure.refunds, 0);
  const amounts = tested.map((figure) => formatMoney(figure.grossMinor, figure.currency));
  return (
    <p
      role="note"
      data-testid="test-sales-note"
      className="mt-4 flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200"
    >
      <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
      <span>
        <strong className="font-semibold">{countOf(count, 'test sale')}</strong> (
        {amounts.join(', ')}
        {refunds > 0 && `, ${refunds} refunded`}) in this period: test payments, no real money. They
        are not counted in revenue, deliveries or payouts.
      </span>
    </p>
  );
}

/** Revenue, content views, deliveries and unlock rate from GET /api/analytics/overview. */
export function StatCards({ days = 30 }: { days?: number }) {
  const overview = useOverview(days);
  if (overview.isPending) return <Loading label="Loading your figures" />;
  if (overview.isError) return <LoadError what="your figures" />;
  const figures = overview.data;
  return (
    <div>
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
      <TestSalesNote overview={figures} />
    </div>
  );
}

import type { RevenueFigure } from '../api/get-overview';
import { formatMoney } from '../lib/format';

/** Net revenue per currency, one line each; currencies are never added together. */
export function RevenueList({ revenue }: { revenue: RevenueFigure[] }) {
  if (revenue.length === 0) return <span className="text-slate-500">{formatMoney(0, 'USD')}</span>;
  return (
    <span className="flex flex-col">
      {revenue.map((figure) => (
        <span key={figure.currency}>{formatMoney(figure.netMinor, figure.currency)}</span>
      ))}
    </span>
  );
}

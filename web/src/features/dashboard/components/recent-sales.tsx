import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { LoadError, Loading, Panel } from '@/components/ui/panel';
import { useSales } from '../api/get-sales';
import { formatDate, formatMoney } from '../lib/format';
import { EmptyState } from './empty-state';
import { SaleStatus } from './sale-status';

/** Spec §9: the dashboard lists take 5 and show 3. */
const FETCHED = 5;
const SHOWN = 3;

export function RecentSales() {
  const sales = useSales(FETCHED);
  const recent = sales.data?.slice(0, SHOWN) ?? [];
  return (
    <Panel
      title="Recent Sales"
      action={
        <Link
          to={paths.dashboard.payments.getHref()}
          className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
        >
          View all
        </Link>
      }
    >
      {sales.isPending ? (
        <Loading label="Loading your sales" />
      ) : sales.isError ? (
        <LoadError what="your sales" />
      ) : recent.length === 0 ? (
        <EmptyState title="No sales yet">
          Share your product link — each payment appears here once the provider confirms it.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {recent.map((sale) => (
            <li key={sale.id} className="flex items-center justify-between gap-4 py-3">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">{sale.productTitle}</p>
                <p className="truncate text-xs text-slate-500">
                  {formatDate(sale.createdAt)} · {sale.buyerEmail}
                </p>
              </div>
              <div className="shrink-0 text-right">
                <p className="text-sm font-semibold text-slate-900">
                  {formatMoney(sale.amountMinor, sale.currency)}
                </p>
                <SaleStatus status={sale.status} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

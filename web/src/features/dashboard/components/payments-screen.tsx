import type { ReactNode } from 'react';
import { Table, type Column } from '@/components/ui/table';
import { LoadError, Loading, Panel } from '@/components/ui/panel';
import { useMay } from '@/features/auth';
import { useSales, type Sale } from '../api/get-sales';
import { formatDate, formatMoney } from '../lib/format';
import { EmptyState } from './empty-state';
import { RefundControl } from './refund-control';
import { SaleStatus } from './sale-status';

const HISTORY_LIMIT = 200;

const money = (minor: number, sale: Sale) => formatMoney(minor, sale.currency);

function SaleProduct({ sale }: { sale: Sale }) {
  return (
    <>
      {sale.productTitle}
      {sale.testMode && (
        <span
          className="ml-2 inline-block rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200"
          title="A test payment: no real money moved, and it is never paid out to your bank"
        >
          Test
        </span>
      )}
      {sale.subscriptionId && (
        <span className="ml-2 inline-block rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700">
          {sale.renewal ? 'Renewal' : 'New subscription'}
        </span>
      )}
      {sale.discount && (
        <span className="block text-xs font-normal text-slate-500">
          Code {sale.discount.code} · {formatMoney(sale.discount.amountOffMinor, sale.currency)} off
        </span>
      )}
    </>
  );
}

function SaleWhen({ sale }: { sale: Sale }) {
  return (
    <>
      <SaleStatus status={sale.status} />
      {sale.refundedAt && (
        <span className="block text-xs text-slate-500">{formatDate(sale.refundedAt)}</span>
      )}
    </>
  );
}

/** Wide screens: a table whose seven columns fit beside the side menu at 1280 px. */
const saleColumns = (onRefunded: () => void): Column<Sale>[] => [
  { header: 'Date', className: 'whitespace-nowrap', cell: (sale) => formatDate(sale.createdAt) },
  {
    header: 'Sale',
    className: 'font-medium text-slate-900',
    cell: (sale) => (
      <>
        <SaleProduct sale={sale} />
        <span className="block text-xs font-normal break-all text-slate-500">
          {sale.buyerEmail}
        </span>
      </>
    ),
  },
  { header: 'Amount', align: 'right', cell: (sale) => money(sale.amountMinor, sale) },
  {
    header: 'Fees',
    align: 'right',
    className: 'text-xs whitespace-nowrap text-slate-600',
    cell: (sale) => (
      <>
        <span className="block">Platform {money(sale.feePlatformMinor, sale)}</span>
        <span className="block">Processor {money(sale.feeProcessorMinor, sale)}</span>
      </>
    ),
  },
  {
    header: 'Earnings',
    align: 'right',
    className: 'font-semibold',
    cell: (sale) => money(sale.sellerEarningsMinor, sale),
  },
  { header: 'Status', cell: (sale) => <SaleWhen sale={sale} /> },
  {
    header: 'Actions',
    hideHeader: true,
    align: 'right',
    className: 'pr-1',
    cell: (sale) => <RefundControl sale={sale} onRefunded={onRefunded} />,
  },
];

/** Small screens: one card per sale, every figure and the Refund button on it. */
function SaleCard({ sale, onRefunded }: { sale: Sale; onRefunded: () => void }) {
  const figures = [
    ['Buyer', sale.buyerEmail],
    ['Amount', money(sale.amountMinor, sale)],
    ['Platform fee', money(sale.feePlatformMinor, sale)],
    ['Processor fee', money(sale.feeProcessorMinor, sale)],
    ['Earnings', money(sale.sellerEarningsMinor, sale)],
  ] as const;
  return (
    <li>
      <article
        aria-label={`${sale.productTitle}, ${formatDate(sale.createdAt)}`}
        data-sale-id={sale.id}
        className="rounded-lg p-4 ring-1 ring-slate-200"
      >
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0 font-medium text-slate-900">
            <SaleProduct sale={sale} />
            <span className="block text-xs font-normal text-slate-500">
              {formatDate(sale.createdAt)}
            </span>
          </div>
          <div className="shrink-0 text-right">
            <SaleWhen sale={sale} />
          </div>
        </div>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {figures.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-500">{label}</dt>
              <dd className="text-right break-all text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-3 flex justify-end">
          <RefundControl sale={sale} onRefunded={onRefunded} />
        </div>
      </article>
    </li>
  );
}

/** /dashboard/payments: balances, payouts, and the seller's own sales with where the money went. */
export function PaymentsScreen({
  payouts,
  onRefunded,
}: {
  payouts: ReactNode;
  /** Refreshes what the refund changed outside this feature (the payout balances). */
  onRefunded: () => void;
}) {
  const sales = useSales(HISTORY_LIMIT);
  const mayExport = useMay('exports:read');
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Payments</h1>
      {payouts}
      <Panel
        title="Sales history"
        action={
          mayExport && sales.data && sales.data.length > 0 ? (
            <a
              href="/api/purchases/sales/export.csv"
              download
              className="text-sm font-medium text-indigo-600 hover:underline"
            >
              Export CSV
            </a>
          ) : undefined
        }
      >
        {sales.isPending ? (
          <Loading label="Loading your sales" />
        ) : sales.isError ? (
          <LoadError what="your sales" />
        ) : sales.data.length === 0 ? (
          <EmptyState title="No sales yet">
            When a buyer pays for one of your products, the payment, its fees and your earnings
            appear here.
          </EmptyState>
        ) : (
          <>
            <div className="hidden lg:block">
              <Table
                columns={saleColumns(onRefunded)}
                rows={sales.data}
                rowKey={(sale) => sale.id}
                rowData={(sale) => ({ 'data-sale-id': sale.id })}
                minWidthClass="min-w-[44rem]"
              />
            </div>
            <ul className="space-y-3 lg:hidden" aria-label="Sales">
              {sales.data.map((sale) => (
                <SaleCard key={sale.id} sale={sale} onRefunded={onRefunded} />
              ))}
            </ul>
          </>
        )}
      </Panel>
    </div>
  );
}

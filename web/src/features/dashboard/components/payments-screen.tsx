import type { ReactNode } from 'react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Table, type Column } from '@/components/ui/table';
import { LoadError, Loading, Panel } from '@/components/ui/panel';
import { useSales, type Sale } from '../api/get-sales';
import { useRefundSale } from '../api/refund-sale';
import { formatDate, formatMoney } from '../lib/format';
import { EmptyState } from './empty-state';
import { SaleStatus } from './sale-status';

const HISTORY_LIMIT = 200;

function RefundControl({ sale }: { sale: Sale }) {
  const [confirming, setConfirming] = useState(false);
  const refund = useRefundSale();
  // A free claim (a 100% code, pay what you want at zero) moved no money to give back.
  if (sale.status !== 'paid' || sale.amountMinor === 0) return null;
  if (!confirming) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
        Refund
      </Button>
    );
  }
  return (
    <div
      role="group"
      aria-label={`Confirm refund of ${sale.productTitle}`}
      className="flex flex-col items-end gap-2"
    >
      <p className="text-xs text-slate-600">
        Refund {formatMoney(sale.amountMinor, sale.currency)} to {sale.buyerEmail}? Their access
        ends.
      </p>
      <div className="flex gap-2">
        <Button
          size="sm"
          variant="ghost"
          onClick={() => setConfirming(false)}
          disabled={refund.isPending}
        >
          Cancel
        </Button>
        <Button size="sm" onClick={() => refund.mutate(sale.id)} disabled={refund.isPending}>
          {refund.isPending ? 'Refunding...' : 'Confirm refund'}
        </Button>
      </div>
    </div>
  );
}

const money = (minor: number, sale: Sale) => formatMoney(minor, sale.currency);

function SaleProduct({ sale }: { sale: Sale }) {
  return (
    <>
      {sale.productTitle}
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

const saleColumns: Column<Sale>[] = [
  { header: 'Date', className: 'whitespace-nowrap', cell: (sale) => formatDate(sale.createdAt) },
  {
    header: 'Product',
    className: 'font-medium text-slate-900',
    cell: (sale) => <SaleProduct sale={sale} />,
  },
  { header: 'Buyer', className: 'text-slate-600', cell: (sale) => sale.buyerEmail },
  { header: 'Amount', align: 'right', cell: (sale) => money(sale.amountMinor, sale) },
  {
    header: 'Platform fee',
    align: 'right',
    className: 'text-slate-600',
    cell: (sale) => money(sale.feePlatformMinor, sale),
  },
  {
    header: 'Processor fee',
    align: 'right',
    className: 'text-slate-600',
    cell: (sale) => money(sale.feeProcessorMinor, sale),
  },
  {
    header: 'Earnings',
    align: 'right',
    className: 'font-semibold',
    cell: (sale) => money(sale.sellerEarningsMinor, sale),
  },
  {
    header: 'Status',
    cell: (sale) => (
      <>
        <SaleStatus status={sale.status} />
        {sale.refundedAt && (
          <span className="block text-xs text-slate-500">{formatDate(sale.refundedAt)}</span>
        )}
      </>
    ),
  },
  {
    header: 'Actions',
    hideHeader: true,
    align: 'right',
    className: 'pr-1',
    cell: (sale) => <RefundControl sale={sale} />,
  },
];

/** /dashboard/payments: balances, payouts, and the seller's own sales with where the money went. */
export function PaymentsScreen({ payouts }: { payouts: ReactNode }) {
  const sales = useSales(HISTORY_LIMIT);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Payments</h1>
      {payouts}
      <Panel title="Sales history">
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
          <Table
            columns={saleColumns}
            rows={sales.data}
            rowKey={(sale) => sale.id}
            rowData={(sale) => ({ 'data-sale-id': sale.id })}
            minWidthClass="min-w-[56rem]"
          />
        )}
      </Panel>
    </div>
  );
}

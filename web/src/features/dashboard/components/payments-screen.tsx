import type { ReactNode } from 'react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useSales, type Sale } from '../api/get-sales';
import { useRefundSale } from '../api/refund-sale';
import { formatDate, formatMoney } from '../lib/format';
import { EmptyState, LoadError, Loading, Panel } from './empty-state';
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
          <div className="overflow-x-auto">
            <table className="w-full min-w-[56rem] text-left text-sm">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Product
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Buyer
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Amount
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Platform fee
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Processor fee
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Earnings
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Status
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {sales.data.map((sale) => (
                  <tr key={sale.id} data-sale-id={sale.id}>
                    <td className="py-3 pr-4 whitespace-nowrap">{formatDate(sale.createdAt)}</td>
                    <td className="py-3 pr-4 font-medium text-slate-900">
                      {sale.productTitle}
                      {sale.subscriptionId && (
                        <span className="ml-2 inline-block rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700">
                          {sale.renewal ? 'Renewal' : 'New subscription'}
                        </span>
                      )}
                      {sale.discount && (
                        <span className="block text-xs font-normal text-slate-500">
                          Code {sale.discount.code} ·{' '}
                          {formatMoney(sale.discount.amountOffMinor, sale.currency)} off
                        </span>
                      )}
                    </td>
                    <td className="py-3 pr-4 text-slate-600">{sale.buyerEmail}</td>
                    <td className="py-3 pr-4 text-right">{money(sale.amountMinor, sale)}</td>
                    <td className="py-3 pr-4 text-right text-slate-600">
                      {money(sale.feePlatformMinor, sale)}
                    </td>
                    <td className="py-3 pr-4 text-right text-slate-600">
                      {money(sale.feeProcessorMinor, sale)}
                    </td>
                    <td className="py-3 pr-4 text-right font-semibold">
                      {money(sale.sellerEarningsMinor, sale)}
                    </td>
                    <td className="py-3 pr-4">
                      <SaleStatus status={sale.status} />
                      {sale.refundedAt && (
                        <span className="block text-xs text-slate-500">
                          {formatDate(sale.refundedAt)}
                        </span>
                      )}
                    </td>
                    <td className="py-3 pr-1 text-right">
                      <RefundControl sale={sale} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useMay } from '@/features/auth';
import type { Sale } from '../api/get-sales';
import { useRefundSale } from '../api/refund-sale';
import { formatMoney } from '../lib/format';

/**
 * Refund, confirmed in a modal dialog (the top layer: nothing around the sale can clip it). What
 * the words say follows payments' refund journal: the platform fee is reversed, the processor's
 * fee is not returned by the provider, so the seller's balance covers it along with the earnings.
 */
export function RefundControl({ sale, onRefunded }: { sale: Sale; onRefunded: () => void }) {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const refund = useRefundSale();
  // Refunding is support's and admin's (issue 28): an accountant reads sales, never refunds.
  const mayRefund = useMay('refunds:write');
  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.open) dialog.showModal();
    if (!open && dialog?.open) dialog.close();
  }, [open]);
  // A free claim (a 100% code, pay what you want at zero) moved no money to give back.
  if (!mayRefund || sale.status !== 'paid' || sale.amountMinor === 0) return null;
  const money = (minor: number) => formatMoney(minor, sale.currency);
  const cost = sale.sellerEarningsMinor + sale.feeProcessorMinor;
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={`Refund ${sale.productTitle} for ${sale.buyerEmail}`}
      >
        Refund
      </Button>
      {open && (
        <dialog
          ref={dialogRef}
          aria-labelledby={titleId}
          onClose={() => setOpen(false)}
          className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-6 text-left shadow-xl backdrop:bg-slate-900/40"
        >
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            Refund this sale?
          </h2>
          <p className="mt-3 text-sm text-slate-700">
            {sale.buyerEmail} gets {money(sale.amountMinor)} back for {sale.productTitle}, and their
            access ends.
          </p>
          <p className="mt-3 text-sm text-slate-700">
            It costs you {money(cost)}: the {money(sale.sellerEarningsMinor)} you earned and the{' '}
            {money(sale.feeProcessorMinor)} processor fee, which the payment provider does not
            return. Lockdrop gives back its {money(sale.feePlatformMinor)} fee. If the earnings were
            already paid out, the amount comes out of your next payouts.
          </p>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="ghost" onClick={() => setOpen(false)} disabled={refund.isPending}>
              Cancel
            </Button>
            <Button
              onClick={() =>
                refund.mutate(sale.id, {
                  onSuccess: () => {
                    setOpen(false);
                    onRefunded();
                  },
                })
              }
              disabled={refund.isPending}
            >
              {refund.isPending ? 'Refunding...' : 'Confirm refund'}
            </Button>
          </div>
        </dialog>
      )}
    </>
  );
}

import { formatMoney } from '@lockdrop/money';
import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/ui/button';
import { TestModeNotice } from '@/components/test-mode-notice';
import { paths } from '@/config/paths';
import type { Purchase } from '../types';
import { PurchaseSummary } from './purchase-summary';

/** "LAUNCH20, $2.00 off" when the buyer used a seller's discount code. */
const discountRows = ({ discount, currency }: Purchase): [string, string][] =>
  discount
    ? [['Discount', `${discount.code}, ${formatMoney(discount.amountOffMinor, currency)} off`]]
    : [];

export function PaymentSuccess({ purchase, txRef }: { purchase: Purchase; txRef: string }) {
  const rows: [string, string][] = [
    ['Status', 'Paid'],
    ['Reference', txRef],
    ['Product', purchase.productTitle],
    ['Amount', formatMoney(purchase.amountMinor, purchase.currency)],
    ...discountRows(purchase),
  ];
  return (
    <div>
      <div className="text-center">
        <CheckCircle2 className="mx-auto size-14 text-emerald-500" aria-hidden="true" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">
          Payment Successful!
        </h1>
        <p className="mt-2 text-slate-600">
          Thank you for your purchase. Everything you bought is unlocked below.
        </p>
      </div>
      <TestModeNotice testMode={purchase.testMode} className="mt-6" />
      <PurchaseSummary purchaseId={purchase.id} details={rows} />
      <div className="mt-8 flex justify-center gap-3">
        <Link to={paths.dashboard.root.getHref()} className={buttonClass('secondary')}>
          Dashboard
        </Link>
        <Link to={paths.home.getHref()} className={buttonClass('ghost')}>
          Home
        </Link>
      </div>
    </div>
  );
}

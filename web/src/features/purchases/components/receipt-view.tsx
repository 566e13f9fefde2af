import { Receipt } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useReceipt } from '../api/open-receipt';
import { PurchaseSummary } from './purchase-summary';
import { TestModeNotice } from '@/components/test-mode-notice';

/** /receipt/:token: the receipt e-mail's link; downloads work without an account. */
export function ReceiptView({ token }: { token: string }) {
  const receipt = useReceipt(token);
  if (receipt.isPending) {
    return (
      <div className="flex justify-center py-10" role="status" aria-label="Opening your receipt">
        <span className="size-8 animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600" />
      </div>
    );
  }
  if (receipt.isError) {
    return (
      <div className="text-center">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Receipt link not valid</h1>
        <p className="mt-2 text-slate-600">{receipt.error.message}</p>
        <Link to={paths.purchases.getHref()} className={buttonClass('secondary', 'md', 'mt-6')}>
          My Purchases
        </Link>
      </div>
    );
  }
  const purchase = receipt.data;
  return (
    <div>
      <div className="text-center">
        <Receipt className="mx-auto size-12 text-indigo-500" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">Your purchase</h1>
      </div>
      <TestModeNotice className="mt-6" />
      <PurchaseSummary
        purchaseId={purchase.id}
        details={[['Product', purchase.productTitle ?? '—']]}
      />
    </div>
  );
}

import { formatMoney } from '@lockdrop/money';
import { ShoppingBag } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';
import type { Purchase } from '../types';
import { PurchaseFiles } from './purchase-files';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export function PurchaseList({ purchases }: { purchases: Purchase[] }) {
  if (purchases.length === 0) {
    return (
      <div className="rounded-2xl border-2 border-dashed border-slate-300 bg-white px-6 py-16 text-center">
        <ShoppingBag className="mx-auto size-10 text-indigo-500" aria-hidden="true" />
        <h2 className="mt-4 text-lg font-semibold text-slate-900">No purchases yet</h2>
        <p className="mt-2 text-slate-600">
          Files you buy with this account's e-mail show up here.
        </p>
        <Link to={paths.home.getHref()} className={buttonClass('secondary', 'md', 'mt-6')}>
          Back to Home
        </Link>
      </div>
    );
  }
  return (
    <ul className="space-y-4">
      {purchases.map((purchase) => (
        <li key={purchase.id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
            <div className="min-w-0 flex-1">
              <Link
                to={paths.products.detail.getHref(purchase.productId)}
                className="font-semibold text-slate-900 hover:text-indigo-700"
              >
                {purchase.productTitle}
              </Link>
              <p className="mt-1 flex flex-wrap gap-x-3 text-sm text-slate-600">
                <span>{dateFormat.format(new Date(purchase.createdAt))}</span>
                <span aria-hidden="true">·</span>
                <span className="font-medium text-slate-900">
                  {formatMoney(purchase.amountMinor, purchase.currency)}
                </span>
                {purchase.testMode && (
                  <>
                    <span aria-hidden="true">·</span>
                    <span className="font-medium text-amber-700">Test payment</span>
                  </>
                )}
                {purchase.status !== 'paid' && purchase.fileName && (
                  <>
                    <span aria-hidden="true">·</span>
                    <span className="truncate">{purchase.fileName}</span>
                  </>
                )}
              </p>
            </div>
            {purchase.status !== 'paid' && (
              <span className="text-sm font-medium text-slate-500">Refunded</span>
            )}
          </div>
          {purchase.status === 'paid' && (
            <div className="mt-4">
              <PurchaseFiles purchaseId={purchase.id} compact />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

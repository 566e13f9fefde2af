import type { ReactNode } from 'react';
import { ApiError } from '@/lib/api';
import { usePurchases } from '../api/get-purchases';
import { EmailNotVerified } from './email-not-verified';
import { PurchaseList } from './purchase-list';

/**
 * /purchases: 'Your Purchases (count)' (spec §2 Purchases). `subscriptions`: the buyer's
 * subscriptions (billing's list, handed in by the route), shown once the purchases load.
 */
export function PurchasesPage({ subscriptions }: { subscriptions: ReactNode }) {
  const purchases = usePurchases();
  const notVerified =
    purchases.error instanceof ApiError && purchases.error.code === 'email_not_verified';
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">
        Your Purchases{purchases.data && ` (${purchases.data.length})`}
      </h1>
      <p className="mt-2 mb-8 text-slate-600">
        Download the files you have bought. Links are valid for 1 hour.
      </p>
      {purchases.isPending && (
        <div className="space-y-4" aria-busy="true" aria-label="Loading purchases">
          {[0, 1].map((key) => (
            <div
              key={key}
              className="h-24 animate-pulse rounded-2xl bg-white ring-1 ring-slate-200"
            />
          ))}
        </div>
      )}
      {notVerified && <EmailNotVerified />}
      {purchases.isError && !notVerified && (
        <p
          role="alert"
          className="rounded-xl bg-rose-50 px-4 py-3 text-rose-800 ring-1 ring-rose-200"
        >
          We could not load your purchases. Please try again in a moment.
        </p>
      )}
      {purchases.data && subscriptions}
      {purchases.data && <PurchaseList purchases={purchases.data} />}
    </div>
  );
}

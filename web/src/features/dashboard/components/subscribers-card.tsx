import { formatMoney } from '@lockdrop/money';
import type { SubscriberFigures } from '@lockdrop/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatCount } from '../lib/format';

/** Active subscribers (not cancelled) and monthly recurring revenue, per currency (payments). */
export function SubscribersCard({ figures }: { figures: UseQueryResult<SubscriberFigures> }) {
  const rows = figures.data?.figures ?? [];
  const subscribers = rows.reduce((sum, row) => sum + row.activeSubscribers, 0);
  return (
    <section
      className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      aria-label="Subscribers"
    >
      <p className="text-sm font-medium text-slate-600">Active subscribers</p>
      <p className="mt-1 text-2xl font-bold text-slate-900" data-testid="active-subscribers">
        {figures.isPending ? '…' : formatCount(subscribers)}
      </p>
      <p className="mt-4 text-sm font-medium text-slate-600">Monthly recurring revenue</p>
      {figures.isPending ? (
        <p className="mt-1 text-lg font-semibold text-slate-900">…</p>
      ) : rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600" data-testid="mrr">
          None yet. Price a product monthly or yearly to earn it.
        </p>
      ) : (
        <ul className="mt-1 space-y-1" data-testid="mrr">
          {rows.map((row) => (
            <li key={row.currency} className="text-lg font-semibold text-slate-900">
              {formatMoney(row.monthlyRecurringMinor, row.currency)}
              <span className="ml-1 text-sm font-normal text-slate-600">per month</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

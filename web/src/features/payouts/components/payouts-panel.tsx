import type { Payout, PayoutBalance } from '@lockdrop/contracts';
import { formatMoney } from '@lockdrop/money';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { notify } from '@/lib/toast';
import {
  usePayoutBalances,
  usePayoutDestination,
  usePayoutHistory,
  useWithdraw,
} from '../api/payouts';
import { withdrawBlocker } from '../lib/withdraw';
import { Failed, Loading } from './status';

const HISTORY_LIMIT = 50;

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatWhen = (iso: string) => dateTime.format(new Date(iso));

const statusStyles: Record<Payout['status'], { label: string; className: string }> = {
  created: { label: 'In transit', className: 'bg-amber-50 text-amber-700' },
  submitted: { label: 'In transit', className: 'bg-amber-50 text-amber-700' },
  paid: { label: 'Paid', className: 'bg-emerald-50 text-emerald-700' },
  failed: { label: 'Failed', className: 'bg-rose-50 text-rose-700' },
};

function Section({
  title,
  children,
  action,
}: {
  title: string;
  children: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <section className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-label={title}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function BalanceCards({ balance }: { balance: PayoutBalance }) {
  const cards = [
    ['Pending', balance.pendingMinor, 'Inside the refund window'],
    ['Available', balance.availableMinor, 'Paid out with the next payout'],
    ['In transit', balance.inTransitMinor, 'On its way to you'],
    ['Paid out', balance.paidOutMinor, 'Sent to your account'],
  ] as const;
  return (
    <div
      role="group"
      aria-label={`${balance.currency} balance`}
      className="grid gap-3 sm:grid-cols-4"
    >
      {cards.map(([label, minor, hint]) => (
        <div key={label} className="rounded-lg bg-slate-50 p-4">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
          <p
            className={`mt-1 text-xl font-semibold ${minor < 0 ? 'text-rose-700' : 'text-slate-900'}`}
            data-testid={`balance-${balance.currency}-${label.toLowerCase().replace(' ', '-')}`}
          >
            {formatMoney(minor, balance.currency)}
          </p>
          <p className="mt-1 text-xs text-slate-500">{hint}</p>
        </div>
      ))}
    </div>
  );
}

function PayoutAmount({ payout }: { payout: Payout }) {
  return (
    <>
      {formatMoney(payout.amountMinor, payout.currency)}
      {payout.sourceCurrency !== payout.currency && payout.fxRate && (
        <span className="block text-xs text-slate-500">
          converted from {formatMoney(payout.sourceAmountMinor, payout.sourceCurrency)} at{' '}
          {payout.fxRate}
        </span>
      )}
    </>
  );
}

/** /dashboard/payments: what the seller is owed, when it is paid, and every payout so far. */
export function PayoutsPanel() {
  const balances = usePayoutBalances();
  const history = usePayoutHistory(HISTORY_LIMIT);
  const destination = usePayoutDestination();
  const withdraw = useWithdraw();
  const blocker = withdrawBlocker({
    balances: balances.data,
    hasDestination: Boolean(destination.data),
    heldUntil: destination.data?.payoutsHeldUntil ?? null,
    now: new Date(),
  });

  const onWithdraw = () =>
    withdraw.mutate(undefined, {
      onSuccess: (payouts) =>
        notify.success(
          'Withdrawal started',
          payouts.map((payout) => formatMoney(payout.amountMinor, payout.currency)).join(', '),
        ),
      onError: (error) => notify.error(error, 'Failed to withdraw'),
    });

  return (
    <div className="space-y-6">
      <Section
        title="Balance"
        action={
          <div className="flex flex-col items-end gap-1">
            <Button onClick={onWithdraw} disabled={blocker !== null || withdraw.isPending}>
              {withdraw.isPending ? 'Withdrawing...' : 'Withdraw now'}
            </Button>
            {blocker && <p className="text-xs text-slate-500">{blocker}</p>}
          </div>
        }
      >
        {balances.isPending ? (
          <Loading label="Loading your balance" />
        ) : balances.isError ? (
          <Failed what="your balance" />
        ) : (
          <div className="space-y-4">
            {balances.data.balances.length === 0 ? (
              <p className="text-sm text-slate-600">
                No earnings yet. Each sale is pending for 24 hours (the refund window), then
                available and paid out automatically.
              </p>
            ) : (
              balances.data.balances.map((balance) => (
                <BalanceCards key={balance.currency} balance={balance} />
              ))
            )}
            <p className="text-sm text-slate-600">
              {destination.data ? (
                <>
                  Next automatic payout:{' '}
                  <strong className="text-slate-900">
                    {balances.data.nextPayoutAt ? formatWhen(balances.data.nextPayoutAt) : '—'}
                  </strong>{' '}
                  to {destination.data.label}. Payouts arrive in 1–3 business days.
                </>
              ) : (
                <>
                  <Link
                    to={paths.settings.getHref()}
                    className="font-medium text-indigo-600 hover:underline"
                  >
                    Add your payout details
                  </Link>{' '}
                  to get paid.
                </>
              )}
            </p>
          </div>
        )}
      </Section>

      <Section
        title="Payouts"
        action={
          history.data && history.data.length > 0 ? (
            <a
              href="/api/payouts/export.csv"
              download
              className="text-sm font-medium text-indigo-600 hover:underline"
            >
              Export CSV
            </a>
          ) : undefined
        }
      >
        {history.isPending ? (
          <Loading label="Loading your payouts" />
        ) : history.isError ? (
          <Failed what="your payouts" />
        ) : history.data.length === 0 ? (
          <p className="text-sm text-slate-600">No payouts yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Amount
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    To
                  </th>
                  <th scope="col" className="py-2">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {history.data.map((payout) => {
                  const status = statusStyles[payout.status];
                  return (
                    <tr key={payout.id} data-testid="payout-row">
                      <td className="py-3 pr-4 whitespace-nowrap text-slate-600">
                        {formatWhen(payout.createdAt)}
                      </td>
                      <td className="py-3 pr-4 font-medium text-slate-900">
                        <PayoutAmount payout={payout} />
                      </td>
                      <td className="py-3 pr-4 text-slate-600">{payout.destinationLabel}</td>
                      <td className="py-3">
                        <span
                          className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${status.className}`}
                        >
                          {status.label}
                        </span>
                        {payout.failureReason && (
                          <span className="mt-1 block text-xs text-rose-700">
                            {payout.failureReason}
                          </span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}

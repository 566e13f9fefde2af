import type { PayoutBalance, PayoutBalances, SellerPayout as Payout } from '@lockdrop/contracts';
import { formatMoney } from '@lockdrop/money';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Table, type Column } from '@/components/ui/table';
import { paths } from '@/config/paths';
import { useMay } from '@/features/auth';
import { paymentModeQueryOptions } from '@/lib/payment-mode';
import { notify } from '@/lib/toast';
import { LoadError, Loading, Panel } from '@/components/ui/panel';
import {
  usePayoutBalances,
  usePayoutDestination,
  usePayoutHistory,
  useWithdraw,
} from '../api/payouts';
import { withdrawBlocker } from '../lib/withdraw';

const HISTORY_LIMIT = 50;

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatWhen = (iso: string) => dateTime.format(new Date(iso));

const statusStyles: Record<Payout['status'], { label: string; className: string }> = {
  created: { label: 'In transit', className: 'bg-amber-50 text-amber-700' },
  submitted: { label: 'In transit', className: 'bg-amber-50 text-amber-700' },
  paid: { label: 'Paid', className: 'bg-emerald-50 text-emerald-700' },
  failed: { label: 'Failed', className: 'bg-rose-50 text-rose-700' },
};

/** When each pending amount can be paid out: the refund window, the hold, a new seller's hold. */
function Releases({ releases }: { releases: PayoutBalances['releases'] }) {
  if (releases.length === 0) return null;
  return (
    <div className="mt-3 text-sm text-slate-600">
      <p className="font-medium text-slate-700">When pending money becomes available</p>
      <ul className="mt-1 space-y-0.5">
        {releases.map((release) => (
          <li key={`${release.availableAt}-${release.amountMinor}`}>
            {formatMoney(release.amountMinor, release.currency)} on{' '}
            {formatWhen(release.availableAt)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function BalanceCards({
  balance,
  releases,
}: {
  balance: PayoutBalance;
  releases: PayoutBalances['releases'];
}) {
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
          <p className="mt-1 text-xs text-slate-500">
            {minor < 0
              ? 'You owe this: a refund or chargeback came after the money was paid out. It is taken from your next sales, and no payout goes out until it is covered.'
              : hint}
          </p>
        </div>
      ))}
      <div className="sm:col-span-4">
        <Releases releases={releases.filter((release) => release.currency === balance.currency)} />
      </div>
    </div>
  );
}

function PayoutStatus({ payout }: { payout: Payout }) {
  const status = statusStyles[payout.status];
  return (
    <>
      <span
        className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${status.className}`}
      >
        {status.label}
      </span>
      {payout.failureReason && (
        <span className="mt-1 block text-xs text-rose-700">{payout.failureReason}</span>
      )}
    </>
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

/** Where it went; a test payout (sandbox money) says it never reached that account (issue 29). */
function PayoutDestination({ payout }: { payout: Payout }) {
  return (
    <>
      {payout.destinationLabel}
      {payout.testMode && (
        <>
          <span className="ml-2 inline-block rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">
            Test
          </span>
          <span className="mt-1 block text-xs text-amber-800">
            Test money, paid out in the sandbox only: nothing was sent to this account.
          </span>
        </>
      )}
    </>
  );
}

const payoutColumns: Column<Payout>[] = [
  {
    header: 'Date',
    className: 'whitespace-nowrap text-slate-600',
    cell: (payout) => formatWhen(payout.createdAt),
  },
  {
    header: 'Amount',
    className: 'font-medium text-slate-900',
    cell: (payout) => <PayoutAmount payout={payout} />,
  },
  {
    header: 'To',
    className: 'text-slate-600',
    cell: (payout) => <PayoutDestination payout={payout} />,
  },
  { header: 'Status', cell: (payout) => <PayoutStatus payout={payout} /> },
];

/** /dashboard/payments: what the seller is owed, when it is paid, and every payout so far. */
export function PayoutsPanel() {
  const balances = usePayoutBalances();
  const history = usePayoutHistory(HISTORY_LIMIT);
  // A member sees what their role may (issue 28): where payouts go is the owner's alone,
  // withdrawing an admin's too, the export an accountant's as well.
  const ownsDestination = useMay('store:owner');
  const mayWithdraw = useMay('payouts:write');
  const mayExport = useMay('exports:read');
  const destination = usePayoutDestination(ownsDestination);
  const withdraw = useWithdraw();
  // A deployment that takes test payments (sandbox, test keys) sends their money to no bank.
  const testMode = useQuery(paymentModeQueryOptions).data?.testMode ?? false;
  const blocker = withdrawBlocker({
    balances: balances.data,
    // A member cannot read the destination: payments refuses a withdrawal without one.
    hasDestination: ownsDestination ? Boolean(destination.data) : true,
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
      <Panel
        title="Balance"
        action={
          mayWithdraw ? (
            <div className="flex flex-col items-end gap-1">
              <Button onClick={onWithdraw} disabled={blocker !== null || withdraw.isPending}>
                {withdraw.isPending ? 'Withdrawing...' : 'Withdraw now'}
              </Button>
              {blocker && <p className="text-xs text-slate-500">{blocker}</p>}
            </div>
          ) : undefined
        }
      >
        {balances.isPending ? (
          <Loading label="Loading your balance" />
        ) : balances.isError ? (
          <LoadError what="your balance" />
        ) : (
          <div className="space-y-4">
            {balances.data.balances.length === 0 ? (
              <p className="text-sm text-slate-600">
                No earnings yet. Each sale is pending for the refund window (and, while you are new
                here, a few days more), then available and paid out automatically.
              </p>
            ) : (
              balances.data.balances.map((balance) => (
                <BalanceCards
                  key={balance.currency}
                  balance={balance}
                  releases={balances.data.releases}
                />
              ))
            )}
            {testMode && (
              <p
                role="note"
                data-testid="test-mode-balances"
                className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200"
              >
                Test mode: these balances come from test payments. They are paid out only in the
                sandbox, never to your bank, and are not revenue.
              </p>
            )}
            <p className="text-sm text-slate-600">
              {!ownsDestination ? (
                <>
                  Next automatic payout:{' '}
                  <strong className="text-slate-900">
                    {balances.data.nextPayoutAt ? formatWhen(balances.data.nextPayoutAt) : '—'}
                  </strong>
                  , to the account the store&apos;s owner chose.
                </>
              ) : destination.data ? (
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
      </Panel>

      <Panel
        title="Payouts"
        action={
          mayExport && history.data && history.data.length > 0 ? (
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
          <LoadError what="your payouts" />
        ) : history.data.length === 0 ? (
          <p className="text-sm text-slate-600">No payouts yet.</p>
        ) : (
          <Table
            columns={payoutColumns}
            rows={history.data}
            rowKey={(payout) => payout.id}
            rowData={() => ({ 'data-testid': 'payout-row' })}
            minWidthClass="min-w-[40rem]"
          />
        )}
      </Panel>
    </div>
  );
}

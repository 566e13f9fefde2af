import { recordAction, SCHEDULED, type ActionSource } from '../audit/index.js';
import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import {
  createEvent,
  type EventData,
  type Payout,
  type SellerPayout,
  type PayoutBalances,
  sealPayoutInstruction,
  type SealedPayoutInstruction,
} from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient, type Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { enqueueMail } from '@lockdrop/mailer';
import { convertMinor, exchangeRatio, formatMoney, toMinor } from '@lockdrop/money';
import { CronExpressionParser } from 'cron-parser';
import { postJournal, sellerAccountTotals } from '../ledger/index.js';
import {
  availableByMode,
  completePayout,
  findCurrentDestination,
  findDestination,
  findPayout,
  insertPayout,
  lastWithdrawalAt,
  listPayouts,
  lockMaturedSales,
  markEarningsReleased,
  markPayoutOutcomeUnknown,
  markPayoutSubmitted,
  paidOutTotals,
  payoutHistory,
  pendingReleases,
  sellersWithDestinations,
  type StoredDestination,
  type StoredPayout,
} from './payouts.repository.js';
import {
  sellerRatio,
  usableExchangeRates,
  withSellerSpread,
  type FxPolicy,
} from '../read-models/index.js';
import { sellerTransfer } from '../ledger/index.js';
import { openDestination, RECEIVABLE_CURRENCIES } from './destinations.js';
import { payoutFailedEmail, payoutSentEmail } from './payout-emails.js';
import type { SecretBox } from '@lockdrop/auth';

const HOUR_MS = 3_600_000;
/** "Withdraw now" at most once per this many hours. */
export const WITHDRAW_INTERVAL_HOURS = 24;

export interface PayoutDeps {
  pool: Pool;
  box: SecretBox;
  /** PAYOUT_INSTRUCTION_KEYS: seals the worker's `payouts.instruction` answers. */
  instructionBox: SecretBox;
  now: () => Date;
  publicUrl: string;
  refundWindowHours: number;
  holdHours: number;
  /** Smallest payout per currency, in major units (decimal strings). */
  minimums: Record<string, string>;
  schedule: { pattern: string; tz: string };
  logger: {
    warn(object: object, message: string): void;
    info(object: object, message: string): void;
    error?(object: object, message: string): void;
  };
  /**
   * Risk rules for new sellers (issue 30): sales in their first `days` (from the first sale) wait
   * `holdHours` more; until `payouts` payouts were paid, at most one payout per `intervalHours`.
   */
  newSellers?: { holdHours: number; days: number; payouts: number; intervalHours: number };
  /** Counts a `failed` report refused for want of the provider's own failed status (/metrics). */
  onFailedReportRefused?: () => void;
  /** Fresh rates only, and the conversion spread (FX_MAX_RATE_AGE_HOURS, FX_SPREAD_BPS). */
  fx: FxPolicy;
}

/**
 * The new-seller rules from the env: the hold and the first-payout interval default to 7 days in
 * production and to off elsewhere (tests and demos pay out at once unless they ask).
 */
export function newSellerRules(env: {
  NODE_ENV: string;
  PAYOUT_NEW_SELLER_HOLD_HOURS?: number;
  PAYOUT_NEW_SELLER_DAYS: number;
  PAYOUT_NEW_SELLER_PAYOUTS: number;
  PAYOUT_NEW_SELLER_INTERVAL_HOURS?: number;
}): NonNullable<PayoutDeps['newSellers']> {
  const productionDefault = env.NODE_ENV === 'production' ? 168 : 0;
  return {
    holdHours: env.PAYOUT_NEW_SELLER_HOLD_HOURS ?? productionDefault,
    days: env.PAYOUT_NEW_SELLER_DAYS,
    payouts: env.PAYOUT_NEW_SELLER_PAYOUTS,
    intervalHours: env.PAYOUT_NEW_SELLER_INTERVAL_HOURS ?? productionDefault,
  };
}

export function minimumPayoutMinor(deps: Pick<PayoutDeps, 'minimums'>, currency: string): number {
  const minimum = deps.minimums[currency];
  return Math.max(1, minimum ? toMinor(minimum, currency) : 1);
}

export function nextPayoutAt(schedule: PayoutDeps['schedule'], after: Date): Date {
  return CronExpressionParser.parse(schedule.pattern, { currentDate: after, tz: schedule.tz })
    .next()
    .toDate();
}

/**
 * Moves every sale whose refund window and hold have passed from pending to available, one
 * balanced `release` journal each. Sales being refunded are locked by the refund and skipped;
 * refunded ones never match.
 */
export async function releaseMaturedEarnings(
  tx: Queryable,
  deps: Pick<PayoutDeps, 'now' | 'refundWindowHours' | 'holdHours' | 'newSellers'>,
  sellerId?: string,
): Promise<number> {
  const now = deps.now();
  const paidBefore = new Date(now.getTime() - (deps.refundWindowHours + deps.holdHours) * HOUR_MS);
  const sales = await lockMaturedSales(tx, {
    paidBefore,
    sellerId,
    newSeller: newSellerHold(deps),
  });
  for (const sale of sales) {
    if (sale.earningsMinor > 0) {
      await postJournal(
        tx,
        { purchaseId: sale.purchaseId },
        'release',
        sale.currency,
        sellerTransfer(sale.sellerId, 'seller_earnings', 'seller_available', sale.earningsMinor),
      );
    }
    await markEarningsReleased(tx, sale.purchaseId, now);
  }
  return sales.length;
}

const newSellerHold = (deps: Pick<PayoutDeps, 'newSellers'>) => ({
  days: deps.newSellers?.days ?? 0,
  hours: deps.newSellers?.holdHours ?? 0,
});

/** The balances, and when each pending amount becomes available (new sellers' hold included). */
export type BalancesWithReleases = PayoutBalances & {
  releases: { currency: string; amountMinor: number; availableAt: string }[];
};

/**
 * The payouts screen's figures. `testMode` narrows them to one mode's money (the public API: a
 * test key sees test balances only); the dashboard sums both, as it always has.
 */
export async function getBalances(
  deps: PayoutDeps,
  sellerId: string,
  testMode: boolean | null = null,
): Promise<BalancesWithReleases> {
  const now = deps.now();
  return withTransaction(deps.pool, async (tx) => {
    await releaseMaturedEarnings(tx, deps, sellerId);
    // One after another: a transaction is one connection, which runs one query at a time
    // (node-postgres warns of overlapping ones and will refuse them).
    const totals = await sellerAccountTotals(tx, sellerId, testMode);
    const paidOut = await paidOutTotals(tx, sellerId, testMode);
    const lastWithdrawal = await lastWithdrawalAt(tx, sellerId);
    const releases = await pendingReleases(tx, sellerId, {
      baseHoldHours: deps.refundWindowHours + deps.holdHours,
      newSeller: newSellerHold(deps),
      testMode,
    });
    const currencies = [...new Set([...totals.map((t) => t.currency), ...paidOut.keys()])].sort();
    const withdrawAt = lastWithdrawal
      ? new Date(lastWithdrawal.getTime() + WITHDRAW_INTERVAL_HOURS * HOUR_MS)
      : null;
    return {
      balances: currencies.map((currency) => {
        const total = totals.find((t) => t.currency === currency);
        return {
          currency,
          pendingMinor: total?.pendingMinor ?? 0,
          availableMinor: total?.availableMinor ?? 0,
          inTransitMinor: total?.inTransitMinor ?? 0,
          paidOutMinor: paidOut.get(currency) ?? 0,
          minimumPayoutMinor: minimumPayoutMinor(deps, currency),
        };
      }),
      nextPayoutAt: nextPayoutAt(deps.schedule, now).toISOString(),
      withdrawAvailableAt: withdrawAt && withdrawAt > now ? withdrawAt.toISOString() : null,
      releases: releases.map((release) => ({
        currency: release.currency,
        amountMinor: release.amountMinor,
        availableAt: release.availableAt.toISOString(),
      })),
    };
  });
}

export function toPayoutView(payout: StoredPayout): Payout {
  return {
    id: payout.id,
    status: payout.status,
    amountMinor: payout.amountMinor,
    currency: payout.currency,
    sourceAmountMinor: payout.sourceAmountMinor,
    sourceCurrency: payout.sourceCurrency,
    fxRate: payout.fxRate,
    trigger: payout.trigger,
    destinationLabel: payout.destinationLabel,
    failureReason: payout.failureReason,
    createdAt: payout.createdAt.toISOString(),
    completedAt: payout.completedAt?.toISOString() ?? null,
  };
}

/** The payouts screen's row: the payout and which mode's money it paid out. */
export const toSellerPayoutView = (payout: StoredPayout): SellerPayout => ({
  ...toPayoutView(payout),
  testMode: payout.testMode,
});

export async function listSellerPayouts(
  deps: Pick<PayoutDeps, 'pool'>,
  sellerId: string,
  limit: number,
): Promise<SellerPayout[]> {
  return (await listPayouts(deps.pool, sellerId, limit)).map(toSellerPayoutView);
}

/** 6 significant decimals of a conversion ratio, for people (the amounts are computed exactly). */
function ratioText(ratio: { numerator: bigint; denominator: bigint }): string {
  const scaled = (ratio.numerator * 1_000_000n + ratio.denominator / 2n) / ratio.denominator;
  const whole = scaled / 1_000_000n;
  const fraction = (scaled % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

type SkipReason =
  | 'no_destination'
  | 'payouts_held'
  | 'below_minimum'
  | 'nothing_available'
  | 'negative_balance'
  | 'velocity_limit';

/**
 * Creates this run's payouts for one seller under a lock on their destination row, so runs,
 * workers and "Withdraw now" for the same seller serialise: the second finds nothing available.
 * Each payout moves available → in transit in balanced journals (two, joined through
 * `fx_conversion`, when the destination takes another currency) and queues `payout.requested`.
 */
async function createSellerPayouts(
  tx: PoolClient,
  deps: PayoutDeps,
  sellerId: string,
  run: { runId: string; trigger: Payout['trigger']; correlationId: string; source: ActionSource },
): Promise<{
  payouts: StoredPayout[];
  skipped: SkipReason | null;
  destination: StoredDestination | null;
  /** For `velocity_limit`: when the next payout may be made. */
  nextAllowedAt?: Date;
}> {
  const destination = await findCurrentDestination(tx, sellerId, { forUpdate: true });
  if (!destination) return { payouts: [], skipped: 'no_destination', destination };
  const now = deps.now();
  if (destination.payoutsHeldUntil && destination.payoutsHeldUntil > now)
    return { payouts: [], skipped: 'payouts_held', destination };
  await releaseMaturedEarnings(tx, deps, sellerId);
  // Test-mode and live earnings are separate payouts (issue 30): test money only ever goes to
  // the sandbox payout provider, so it must never be summed into a live payout.
  const totals = await availableByMode(tx, sellerId);
  // A negative balance in any currency (a refund or chargeback after a payout) is owed first:
  // no payout in any currency until sales cover it (issue 30).
  if (totals.some((total) => total.availableMinor < 0)) {
    deps.logger.info({ sellerId }, 'payout skipped: a balance is negative');
    return { payouts: [], skipped: 'negative_balance', destination };
  }
  const velocity = deps.newSellers;
  if (velocity && velocity.intervalHours > 0 && totals.some((t) => t.availableMinor > 0)) {
    const history = await payoutHistory(tx, sellerId);
    const nextAllowedAt = history.lastCreatedAt
      ? new Date(history.lastCreatedAt.getTime() + velocity.intervalHours * HOUR_MS)
      : null;
    if (history.paid < velocity.payouts && nextAllowedAt && nextAllowedAt > now)
      return { payouts: [], skipped: 'velocity_limit', destination, nextAllowedAt };
  }
  const receivable = RECEIVABLE_CURRENCIES[destination.method];
  const rates = await usableExchangeRates(tx, deps.fx, now);
  const payouts: StoredPayout[] = [];
  let belowMinimum = false;
  for (const { currency: sourceCurrency, availableMinor, testMode } of totals) {
    if (availableMinor <= 0) continue;
    if (availableMinor < minimumPayoutMinor(deps, sourceCurrency)) {
      belowMinimum = true;
      continue;
    }
    const currency = receivable.includes(sourceCurrency) ? sourceCurrency : receivable[0]!;
    let amountMinor = availableMinor;
    let fxRate: string | null = null;
    if (currency !== sourceCurrency) {
      const ratio = exchangeRatio(sourceCurrency, currency, rates);
      const converted = convertMinor(availableMinor, sourceCurrency, currency, rates);
      const received = converted.converted ? withSellerSpread(converted.amountMinor, deps.fx) : 0;
      if (!ratio || received <= 0) {
        deps.logger.warn(
          { sellerId, sourceCurrency, currency },
          'no fresh exchange rate for a payout conversion; the balance waits for the next run',
        );
        continue;
      }
      amountMinor = received;
      fxRate = ratioText(sellerRatio(ratio, deps.fx));
    }
    const payout: StoredPayout = {
      id: randomUUID(),
      sellerId,
      destinationId: destination.id,
      method: destination.method,
      destinationLabel: destination.label,
      status: 'created',
      amountMinor,
      currency,
      sourceAmountMinor: availableMinor,
      sourceCurrency,
      fxRate,
      trigger: run.trigger,
      runId: run.runId,
      provider: null,
      providerTransferId: null,
      failureReason: null,
      createdAt: now,
      submittedAt: null,
      completedAt: null,
      outcomeUnknownSince: null,
      outcomeUnknownReason: null,
      testMode,
    };
    if (!(await insertPayout(tx, payout))) continue;
    const owner = { payoutId: payout.id };
    if (fxRate) {
      await postJournal(tx, owner, 'payout', sourceCurrency, [
        { account: 'seller_available', sellerId, amountMinor: availableMinor },
        { account: 'fx_conversion', sellerId: null, amountMinor: -availableMinor },
      ]);
      await postJournal(tx, owner, 'payout', currency, [
        { account: 'fx_conversion', sellerId: null, amountMinor },
        { account: 'seller_in_transit', sellerId, amountMinor: -amountMinor },
      ]);
    } else {
      await postJournal(
        tx,
        owner,
        'payout',
        currency,
        sellerTransfer(sellerId, 'seller_available', 'seller_in_transit', amountMinor),
      );
    }
    await enqueueEvent(
      tx,
      createEvent(
        'payout.requested',
        {
          payoutId: payout.id,
          sellerId,
          amountMinor,
          currency,
          method: destination.method,
          testMode,
        },
        { correlationId: run.correlationId },
      ),
    );
    payouts.push(payout);
  }
  const skipped = payouts.length > 0 ? null : belowMinimum ? 'below_minimum' : 'nothing_available';
  if (payouts.length > 0)
    await recordAction(
      tx,
      run.source,
      {
        storeId: sellerId,
        action: run.trigger === 'withdraw' ? 'payout.withdrawn' : 'payout.scheduled',
        target: destination.label,
        details: {
          runId: run.runId,
          payouts: payouts.map((payout) => ({
            id: payout.id,
            amountMinor: payout.amountMinor,
            currency: payout.currency,
          })),
        },
      },
      run.correlationId,
    );
  return { payouts, skipped, destination };
}

/** A scheduled run: one transaction per seller, so one seller's trouble never blocks the rest. */
export async function runPayouts(
  deps: PayoutDeps,
  run: { runId: string; correlationId: string },
): Promise<number> {
  let created = 0;
  for (const sellerId of await sellersWithDestinations(deps.pool)) {
    const result = await withTransaction(deps.pool, (tx) =>
      createSellerPayouts(tx, deps, sellerId, { ...run, trigger: 'scheduled', source: SCHEDULED }),
    );
    created += result.payouts.length;
  }
  deps.logger.info({ runId: run.runId, payouts: created }, 'payout run created payouts');
  return created;
}

/** "Withdraw now": the seller's available balance, at most once per WITHDRAW_INTERVAL_HOURS. */
export async function withdrawNow(
  deps: PayoutDeps,
  sellerId: string,
  correlationId: string,
  source: ActionSource,
): Promise<SellerPayout[]> {
  const now = deps.now();
  return withTransaction(deps.pool, async (tx) => {
    // Lock first, so two presses cannot both pass the once-a-day check.
    const destination = await findCurrentDestination(tx, sellerId, { forUpdate: true });
    const last = destination ? await lastWithdrawalAt(tx, sellerId) : null;
    if (last && now.getTime() - last.getTime() < WITHDRAW_INTERVAL_HOURS * HOUR_MS) {
      const next = new Date(last.getTime() + WITHDRAW_INTERVAL_HOURS * HOUR_MS);
      throw new AppError(
        'withdraw_too_soon',
        409,
        `You can withdraw once a day; next from ${next.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        { availableAt: next.toISOString() },
      );
    }
    const result = await createSellerPayouts(tx, deps, sellerId, {
      runId: `withdraw:${randomUUID()}`,
      trigger: 'withdraw',
      correlationId,
      source,
    });
    switch (result.skipped) {
      case null:
        return result.payouts.map(toSellerPayoutView);
      case 'no_destination':
        throw new AppError('no_destination', 409, 'Add your payout details in Settings first');
      case 'payouts_held':
        throw new AppError(
          'payouts_held',
          409,
          `Your payout details changed recently, so payouts are paused until ${result.destination!.payoutsHeldUntil!.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        );
      case 'below_minimum': {
        const minimums = (await sellerAccountTotals(tx, sellerId))
          .filter((total) => total.availableMinor > 0)
          .map((total) => formatMoney(minimumPayoutMinor(deps, total.currency), total.currency));
        throw new AppError(
          'below_minimum',
          409,
          `Your available balance is below the minimum payout (${minimums.join(', ')})`,
        );
      }
      case 'nothing_available':
        throw new AppError(
          'nothing_to_withdraw',
          409,
          'You have no available balance to withdraw yet',
        );
      case 'negative_balance':
        throw new AppError(
          'negative_balance',
          409,
          'A refund or chargeback left one of your balances below zero; payouts resume once new sales cover it',
        );
      case 'velocity_limit':
        throw new AppError(
          'payout_velocity',
          409,
          `New sellers get one payout a week at first; next from ${result.nextAllowedAt!.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
          { availableAt: result.nextAllowedAt!.toISOString() },
        );
    }
  });
}

/**
 * What the worker needs to send a payout: the destination is opened from its row only to be
 * sealed again for the worker, under this payout's id (`sealPayoutInstruction`), so the bus
 * carries no bank details and a reply cannot be passed off as another payout's.
 */
export async function payoutInstruction(
  deps: Pick<PayoutDeps, 'pool' | 'box' | 'instructionBox'>,
  payoutId: string,
): Promise<SealedPayoutInstruction | { send: false; status: string }> {
  const payout = await findPayout(deps.pool, payoutId);
  if (!payout) return { send: false, status: 'unknown' };
  if (payout.status === 'paid' || payout.status === 'failed')
    return { send: false, status: payout.status };
  const destination = await findDestination(deps.pool, payout.destinationId);
  if (!destination) return { send: false, status: 'destination_missing' };
  return sealPayoutInstruction(deps.instructionBox, {
    send: true,
    payoutId: payout.id,
    sellerId: payout.sellerId,
    amountMinor: payout.amountMinor,
    currency: payout.currency,
    narration: `Lockdrop payout ${payout.id.slice(0, 8)}`,
    providerTransferId: payout.providerTransferId,
    destination: openDestination(deps.box, destination),
  });
}

export async function recordTransferSubmitted(
  tx: Queryable,
  deps: Pick<PayoutDeps, 'now'>,
  data: EventData<'payout.transfer_submitted'>,
): Promise<void> {
  await markPayoutSubmitted(tx, data.payoutId, {
    provider: data.provider,
    providerTransferId: data.providerTransferId,
    at: deps.now(),
  });
}

/**
 * The worker could not learn whether the provider made the transfer (ARCHITECTURE §3a): the
 * payout keeps its status and its money in transit, and is flagged for an operator
 * (`payments_payouts_outcome_unknown` on /metrics, `npm run payouts -- unknown`) until the
 * provider's answer about the transfer arrives as `payout.transfer_submitted`/`_completed`.
 */
export async function recordTransferUnknown(
  tx: Queryable,
  deps: Pick<PayoutDeps, 'now' | 'logger'>,
  data: EventData<'payout.transfer_unknown'>,
): Promise<void> {
  const flagged = await markPayoutOutcomeUnknown(tx, data.payoutId, {
    provider: data.provider,
    reason: data.reason,
    at: deps.now(),
  });
  const log = deps.logger.error ?? deps.logger.warn;
  log.call(
    deps.logger,
    { payoutId: data.payoutId, provider: data.provider, reason: data.reason, flagged },
    'payout outcome unknown: money stays in transit until the provider answers; needs an operator',
  );
}

/**
 * The provider's final word: paid (in transit → sent) or failed (in transit → available, and
 * the seller is told why). A payout already final stays as it is, so replays change nothing.
 * Money goes back to available only on the provider's word: a `failed` report for a payout with
 * a provider transfer id (or one whose outcome was unknown) is refused unless it carries the
 * status the provider's API gave for that transfer.
 */
export async function recordTransferCompleted(
  tx: Queryable,
  deps: PayoutDeps,
  data: EventData<'payout.transfer_completed'>,
  correlationId: string,
): Promise<boolean> {
  const payout = await findPayout(tx, data.payoutId, { forUpdate: true });
  if (!payout) {
    deps.logger.warn({ payoutId: data.payoutId }, 'transfer reported for an unknown payout');
    return false;
  }
  if (payout.status === 'paid' || payout.status === 'failed') {
    if ((payout.status === 'paid') !== (data.status === 'successful'))
      deps.logger.warn(
        { payoutId: payout.id, recorded: payout.status, reported: data.status },
        'provider reports a different outcome for a finished payout; needs an operator',
      );
    return false;
  }
  if (
    data.status === 'failed' &&
    data.providerStatus !== 'failed' &&
    (payout.providerTransferId || data.providerTransferId || payout.outcomeUnknownSince)
  ) {
    deps.onFailedReportRefused?.();
    deps.logger.warn(
      {
        payoutId: payout.id,
        providerTransferId: payout.providerTransferId ?? data.providerTransferId,
        outcomeUnknownSince: payout.outcomeUnknownSince,
        reason: data.reason,
      },
      'refused a failed report without the provider’s failed status: the money stays in transit',
    );
    return false;
  }
  const destination = await findDestination(tx, payout.destinationId);
  const at = deps.now();
  const ref = {
    payoutId: payout.id,
    sellerId: payout.sellerId,
    amountMinor: payout.amountMinor,
    currency: payout.currency,
    testMode: payout.testMode,
  };
  const mail = {
    to: destination?.notifyEmail ?? '',
    amountMinor: payout.amountMinor,
    currency: payout.currency,
    destinationLabel: payout.destinationLabel,
    dashboardUrl: `${deps.publicUrl}/dashboard/payments`,
    testMode: payout.testMode,
  };
  if (data.status === 'successful') {
    await completePayout(tx, payout.id, {
      status: 'paid',
      provider: data.provider,
      providerTransferId: data.providerTransferId,
      failureReason: null,
      at,
    });
    await postJournal(tx, { payoutId: payout.id }, 'payout_paid', payout.currency, [
      { account: 'seller_in_transit', sellerId: payout.sellerId, amountMinor: payout.amountMinor },
      { account: 'payouts_sent', sellerId: null, amountMinor: -payout.amountMinor },
    ]);
    await enqueueEvent(
      tx,
      createEvent(
        'payout.paid',
        { ...ref, providerReference: data.providerTransferId ?? payout.id },
        { correlationId },
      ),
    );
    if (mail.to) await enqueueMail(tx, payoutSentEmail(mail));
  } else {
    const reason = data.reason?.trim() || 'The payout provider refused the transfer';
    await completePayout(tx, payout.id, {
      status: 'failed',
      provider: data.provider,
      providerTransferId: data.providerTransferId,
      failureReason: reason,
      at,
    });
    await returnFailedPayout(tx, payout);
    await enqueueEvent(tx, createEvent('payout.failed', { ...ref, reason }, { correlationId }));
    if (mail.to) await enqueueMail(tx, payoutFailedEmail({ ...mail, reason }));
  }
  return true;
}

/**
 * A failed payout's money goes back where it came from: a converted payout is unwound through
 * `fx_conversion` into the *source* currency, at exactly the amount taken from it (issue 30) —
 * never left in the destination's currency, which the seller did not earn in and which a later
 * payout would convert again.
 */
async function returnFailedPayout(tx: Queryable, payout: StoredPayout): Promise<void> {
  const owner = { payoutId: payout.id };
  if (payout.sourceCurrency === payout.currency) {
    await postJournal(
      tx,
      owner,
      'payout_failed',
      payout.currency,
      sellerTransfer(payout.sellerId, 'seller_in_transit', 'seller_available', payout.amountMinor),
    );
    return;
  }
  await postJournal(tx, owner, 'payout_failed', payout.currency, [
    { account: 'seller_in_transit', sellerId: payout.sellerId, amountMinor: payout.amountMinor },
    { account: 'fx_conversion', sellerId: null, amountMinor: -payout.amountMinor },
  ]);
  await postJournal(tx, owner, 'payout_failed', payout.sourceCurrency, [
    { account: 'fx_conversion', sellerId: null, amountMinor: payout.sourceAmountMinor },
    {
      account: 'seller_available',
      sellerId: payout.sellerId,
      amountMinor: -payout.sourceAmountMinor,
    },
  ]);
}

import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import {
  lockCheckoutToSettle,
  lockCheckoutsToSettle,
  loadSellersForSales,
  newSaleWrites,
  setCheckoutStatus,
  writeSales,
  type Checkout,
  type SaleWrites,
} from '../sales/index.js';
import { markEventsProcessed, recordMismatch } from './provider-events.repository.js';
import { announceFailedCharge, announcePendingCharge } from './pending-charges.js';
import type { Subscription } from '../subscriptions/index.js';
import type { VerifiedTransaction } from '../../providers/types.js';
import { recordSale } from '../sales/index.js';
import {
  adoptProviderRenewal,
  recordRenewalFailure,
  settleSubscriptionCharge,
  stopProviderCharges,
  type SubscriptionDeps,
} from '../subscriptions/index.js';

/** Settlement locks the checkout in its own transaction; the rest is a subscription's or a sale's. */
export interface SettlementDeps extends SubscriptionDeps {
  pool: Pool;
}

export type SettlementOutcome =
  | 'paid'
  | 'already_paid'
  | 'pending'
  | 'failed'
  | 'mismatch'
  | 'checkout_missing'
  /** A provider renewal no single subscription can claim: parked for an operator, credited to nobody. */
  | 'renewal_unmatched';

/**
 * What the verified transaction says that disagrees with the checkout (payments-contract §3). A
 * checkout holding a discount code's use expires with its payment page: paid after that (the
 * provider did not enforce `session_duration`), the code's limits and end would not hold, so it
 * is money to hand back, judged by when the provider says it was paid.
 */
function mismatchesOf(checkout: Checkout, verified: VerifiedTransaction, now: Date): string[] {
  const reasons: string[] = [];
  if (verified.txRef !== checkout.txRef) reasons.push('tx_ref');
  if (verified.currency !== checkout.currency) reasons.push('currency');
  if (verified.currency === checkout.currency && verified.amountMinor < checkout.amountMinor)
    reasons.push('amount');
  if (checkout.expiresAt && (verified.paidAt ?? now) > checkout.expiresAt) reasons.push('expired');
  return reasons;
}

/** One verified transaction to settle, and the stored event it came from (if any). */
export interface VerifiedPayment {
  txRef: string;
  verified: VerifiedTransaction;
  providerEventId?: number;
}

/**
 * Gives value for a transaction the provider's verify API reported — never for a webhook body.
 * Runs under a row lock on the checkout, so duplicate, replayed and concurrent notifications
 * serialise here: the first pays; the rest find the purchase and change nothing. The purchase,
 * its journal, `purchase.paid`, the receipt e-mail and the event's outcome commit together.
 */
export async function settleTransaction(
  deps: SettlementDeps,
  txRef: string,
  verified: VerifiedTransaction,
  providerEventId?: number,
): Promise<SettlementOutcome> {
  const [outcome] = await settleVerified(deps, [{ txRef, verified, providerEventId }]);
  return outcome!;
}

/**
 * Settles many verified payments in one transaction (the settler's batch, issue 31): every
 * checkout is locked in one statement, what already paid them read in one more, and the sales
 * are written with one multi-row statement per table (purchases, journal lines, checkouts,
 * outbox, receipts, event outcomes). Each payment is judged exactly as alone would be — several
 * notifications of one checkout in a batch see each other's outcome — and subscriptions,
 * renewals a provider charged on its own, declines and mismatches take their own statements.
 * All or nothing: the caller retries a failed batch one payment at a time.
 */
export async function settleVerified(
  deps: SettlementDeps,
  payments: VerifiedPayment[],
): Promise<SettlementOutcome[]> {
  let mailQueued = false;
  const replacedSubscriptions: Subscription[] = [];
  const outcomes = await withTransaction(deps.pool, async (tx) => {
    const lockedByTxRef = await lockCheckoutsToSettle(
      tx,
      payments.map((payment) => payment.txRef),
    );
    const writes = newSaleWrites();
    // Every seller this batch may record a sale for, read in one statement.
    await loadSellersForSales(
      tx,
      writes,
      [...lockedByTxRef.values()].flatMap(({ checkout }) =>
        checkout.sellerId ? [checkout.sellerId] : [],
      ),
      deps.provider.testMode,
    );
    const processed: Array<{ id: number; outcome: string }> = [];
    const results: SettlementOutcome[] = [];
    for (const payment of payments) {
      const result = await settleLocked(tx, deps, payment, lockedByTxRef, writes);
      if (result.outcome !== 'checkout_missing' && payment.providerEventId !== undefined)
        processed.push({ id: payment.providerEventId, outcome: result.outcome });
      if (result.mailQueued) mailQueued = true;
      if (result.replaced) replacedSubscriptions.push(result.replaced);
      results.push(result.outcome);
    }
    await writeSales(tx, writes);
    await markEventsProcessed(tx, processed, deps.now());
    return results;
  });
  if (mailQueued) deps.onMailQueued();
  for (const replaced of replacedSubscriptions) await stopProviderCharges(deps, replaced);
  return outcomes;
}

type Locked = { checkout: Checkout; settledTransactionId: string | null };

/** One payment, its checkout already locked (or adopted here); sales go to `writes`. */
async function settleLocked(
  tx: PoolClient,
  deps: SettlementDeps,
  { txRef, verified }: VerifiedPayment,
  lockedByTxRef: Map<string, Locked>,
  writes: SaleWrites,
): Promise<{ outcome: SettlementOutcome; mailQueued?: boolean; replaced?: Subscription | null }> {
  // A renewal the provider charged on its own has no checkout yet: adopting makes one.
  let locked = lockedByTxRef.get(txRef) ?? null;
  if (!locked && verified.status === 'successful') {
    const adopted = await adoptProviderRenewal(tx, deps, txRef, verified);
    if (adopted === 'unmatched') return { outcome: 'renewal_unmatched' };
    if (adopted) {
      locked = await lockCheckoutToSettle(tx, txRef);
      if (locked) lockedByTxRef.set(txRef, locked);
    }
  }
  if (!locked) return { outcome: 'checkout_missing' };
  const { checkout, settledTransactionId } = locked;
  const mismatch = (reasons: string[]) =>
    recordMismatch(tx, {
      checkoutId: checkout.id,
      provider: deps.provider.name,
      transactionId: verified.transactionId,
      reasons,
      expected: {
        txRef: checkout.txRef,
        amountMinor: checkout.amountMinor,
        currency: checkout.currency,
      },
      reported: verified,
    });

  if (settledTransactionId) {
    // A second successful charge on a paid checkout is money to hand back, not a second sale.
    if (verified.status === 'successful' && verified.transactionId !== settledTransactionId) {
      await mismatch(['duplicate_payment']);
    }
    return { outcome: 'already_paid' };
  }
  if (verified.status === 'pending') {
    // Announced only when, completed, it would be this checkout's sale.
    if (mismatchesOf(checkout, verified, deps.now()).length === 0)
      await announcePendingCharge(tx, deps, checkout, verified);
    return { outcome: 'pending' };
  }
  if (verified.status === 'other') return { outcome: 'pending' };
  if (verified.status === 'failed') {
    await announceFailedCharge(tx, deps, checkout, verified);
    await setCheckoutStatus(tx, checkout.id, 'failed', ['creating', 'open']);
    // Only the first word of a decline counts; the reconciler asking again is no new failure.
    if (checkout.status !== 'failed') await recordRenewalFailure(tx, deps, checkout);
    locked.checkout = { ...checkout, status: 'failed' };
    return { outcome: 'failed' };
  }
  const reasons = mismatchesOf(checkout, verified, deps.now());
  if (reasons.length > 0) {
    await mismatch(reasons);
    return { outcome: 'mismatch' };
  }
  if (verified.amountMinor > checkout.amountMinor) await mismatch(['overpaid']);

  let replaced: Subscription | null = null;
  if (checkout.kind === 'plan' || checkout.billingInterval) {
    // Subscriptions write their own rows now (their charge row refers to the purchase).
    const charge = await settleSubscriptionCharge(tx, deps, checkout, verified);
    replaced = charge.replaced;
    if (charge.result === 'period_already_paid') {
      // The period was paid by another charge (a renewal and a "pay now" crossing): hand it back.
      await mismatch(['duplicate_payment']);
      await setCheckoutStatus(tx, checkout.id, 'failed', ['creating', 'open']);
      locked.checkout = { ...checkout, status: 'failed' };
      return { outcome: 'mismatch', replaced };
    }
  } else {
    await recordSale(tx, deps, checkout, verified, null, writes);
  }
  // Later notifications of this checkout in the same batch find it paid.
  locked.settledTransactionId = verified.transactionId;
  return { outcome: 'paid', mailQueued: true, replaced };
}

import { withTransaction, type Pool } from '@lockdrop/db';
import { lockCheckoutToSettle, setCheckoutStatus, type Checkout } from '../sales/index.js';
import { markEventProcessed, recordMismatch } from './provider-events.repository.js';
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
  let mailQueued = false;
  let replacedSubscription: Subscription | null = null;
  const outcome = await withTransaction(deps.pool, async (tx): Promise<SettlementOutcome> => {
    // A renewal the provider charged on its own has no checkout yet: adopting makes one.
    let locked = await lockCheckoutToSettle(tx, txRef);
    if (!locked && verified.status === 'successful') {
      const adopted = await adoptProviderRenewal(tx, deps, txRef, verified);
      if (adopted === 'unmatched') {
        if (providerEventId !== undefined)
          await markEventProcessed(tx, providerEventId, 'renewal_unmatched', deps.now());
        return 'renewal_unmatched';
      }
      if (adopted) locked = await lockCheckoutToSettle(tx, txRef);
    }
    if (!locked) return 'checkout_missing';
    const { checkout, settledTransactionId } = locked;
    const done = async (result: SettlementOutcome) => {
      if (providerEventId !== undefined)
        await markEventProcessed(tx, providerEventId, result, deps.now());
      return result;
    };
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
      return done('already_paid');
    }
    if (verified.status === 'pending' || verified.status === 'other') return done('pending');
    if (verified.status === 'failed') {
      await setCheckoutStatus(tx, checkout.id, 'failed', ['creating', 'open']);
      // Only the first word of a decline counts; the reconciler asking again is no new failure.
      if (checkout.status !== 'failed') await recordRenewalFailure(tx, deps, checkout);
      return done('failed');
    }
    const reasons = mismatchesOf(checkout, verified, deps.now());
    if (reasons.length > 0) {
      await mismatch(reasons);
      return done('mismatch');
    }
    if (verified.amountMinor > checkout.amountMinor) await mismatch(['overpaid']);

    if (checkout.kind === 'plan' || checkout.billingInterval) {
      const { result, replaced } = await settleSubscriptionCharge(tx, deps, checkout, verified);
      replacedSubscription = replaced;
      if (result === 'period_already_paid') {
        // The period was paid by another charge (a renewal and a "pay now" crossing): hand it back.
        await mismatch(['duplicate_payment']);
        await setCheckoutStatus(tx, checkout.id, 'failed', ['creating', 'open']);
        return done('mismatch');
      }
    } else {
      await recordSale(tx, deps, checkout, verified);
    }
    mailQueued = true;
    return done('paid');
  });
  if (mailQueued) deps.onMailQueued();
  if (replacedSubscription) await stopProviderCharges(deps, replacedSubscription);
  return outcome;
}

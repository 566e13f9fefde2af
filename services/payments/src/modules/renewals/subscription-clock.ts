import { withTransaction } from '@lockdrop/db';
import { enqueueMail } from '@lockdrop/mailer';
import { findOpenRenewalCheckout, type Checkout } from '../sales/index.js';
import { emailBrand, findProduct, findShownBrand } from '../read-models/index.js';
import {
  findSubscription,
  listSubscriptionsDue,
  noteSubscription,
  updateSubscription,
  type Subscription,
} from '../subscriptions/index.js';
import { ProviderRejectedError } from '../../providers/types.js';
import { newTxRef } from '../checkout/index.js';
import type { CheckoutDeps } from '../checkout/index.js';
import type { RefundDeps } from '../refunds/index.js';
import { settleTransaction, type SettlementDeps } from '../settlement/index.js';
import { renewalReminderEmail } from '../subscriptions/index.js';
import {
  emitSubscriptionEvent,
  expireSubscription,
  insertRenewalCheckout,
  stopProviderCharges,
} from '../subscriptions/index.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What the renewals module needs: settling a charge, opening a checkout, and a logger. */
export interface RenewalsDeps extends SettlementDeps {
  checkout: CheckoutDeps;
  /** The refund-record pattern the annual plan's refund shares with sales (refunds module). */
  refunds: RefundDeps;
  logger: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
}

export interface ClockReport {
  charged: number;
  pastDue: number;
  expired: number;
  reminded: number;
}

type Step =
  | { kind: 'none' }
  | { kind: 'past_due' | 'reminded' }
  | { kind: 'expired'; sub: Subscription }
  | { kind: 'charge'; checkout: Checkout; sub: Subscription };

/**
 * One tick of the subscription clock (`subscriptions.due` from the worker, every minute): each
 * subscription with something due moves one step, under its row lock so overlapping ticks and
 * replicas never act twice. Renewals the provider does not charge on its own (the sandbox) are
 * charged here, then settled exactly like a webhook's payment.
 */
export async function runSubscriptionClock(deps: RenewalsDeps, limit = 200): Promise<ClockReport> {
  const report: ClockReport = { charged: 0, pastDue: 0, expired: 0, reminded: 0 };
  for (const id of await listSubscriptionsDue(deps.pool, deps.now(), limit)) {
    try {
      const step = await advanceSubscription(deps, id);
      if (step.kind === 'charge') {
        await chargeRenewal(deps, step.sub, step.checkout);
        report.charged += 1;
      } else if (step.kind === 'expired') {
        report.expired += 1;
        await stopProviderCharges(deps, step.sub);
      } else if (step.kind === 'past_due') report.pastDue += 1;
      else if (step.kind === 'reminded') report.reminded += 1;
    } catch (error) {
      deps.logger.error({ err: error, subscriptionId: id }, 'subscription step failed');
    }
  }
  if (report.reminded > 0 || report.pastDue > 0) deps.onMailQueued();
  return report;
}

/** Makes the next renewal due now (sandbox test control), then runs that subscription's step. */
export async function renewNow(deps: RenewalsDeps, id: string): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    const sub = await findSubscription(tx, id, { forUpdate: true });
    if (!sub || sub.status === 'expired') return;
    const now = deps.now();
    // The period is cut short to now; a renewal already due keeps its own period.
    if (sub.currentPeriodEnd > now) {
      await updateSubscription(tx, id, { currentPeriodEnd: now }, now);
    }
    await noteSubscription(tx, id, { nextAttemptAt: null });
  });
  const step = await advanceSubscription(deps, id);
  if (step.kind === 'charge') await chargeRenewal(deps, step.sub, step.checkout);
}

async function advanceSubscription(deps: RenewalsDeps, id: string): Promise<Step> {
  return withTransaction(deps.pool, async (tx): Promise<Step> => {
    const sub = await findSubscription(tx, id, { forUpdate: true });
    if (!sub || sub.status === 'expired') return { kind: 'none' };
    const now = deps.now();
    const at = now.getTime();

    if (sub.status === 'past_due' && sub.graceUntil && sub.graceUntil.getTime() <= at) {
      await expireSubscription(tx, deps, sub, sub.cancelAtPeriodEnd ? 'cancelled' : 'unpaid');
      return { kind: 'expired', sub };
    }
    if (sub.currentPeriodEnd.getTime() <= at) {
      const endsHere = sub.cancelAtPeriodEnd || (sub.kind === 'plan' && sub.pendingPlan === 'free');
      if (endsHere && sub.status === 'active') {
        await expireSubscription(tx, deps, sub, 'cancelled');
        return { kind: 'expired', sub };
      }
      if (endsHere) {
        // Past due and cancelled: nothing more is charged; it ends with its grace period.
        await noteSubscription(tx, id, { nextAttemptAt: sub.graceUntil });
        return { kind: 'none' };
      }
      if (sub.nextAttemptAt && sub.nextAttemptAt.getTime() > at) return { kind: 'none' };
      // The seller deleted the product: nobody is charged for it again.
      if (sub.kind === 'product') {
        const product = await findProduct(tx, sub.productId!);
        if (!product || product.deleted) {
          await expireSubscription(tx, deps, sub, 'product_deleted');
          return { kind: 'expired', sub };
        }
      }
      if (deps.provider.chargeSubscription && sub.providerSubscriptionId) {
        const checkout =
          (await findOpenRenewalCheckout(tx, sub.id, sub.currentPeriodEnd)) ??
          (await insertRenewalCheckout(tx, deps, sub, newTxRef(), 'open'));
        // Settlement clears this; if the charge never answers, the next try is in an hour.
        await noteSubscription(tx, id, { nextAttemptAt: new Date(at + HOUR_MS) });
        return { kind: 'charge', checkout, sub };
      }
      // The provider charges on its own (Flutterwave): no charge by the end of the leeway means
      // it was declined — past due, with the grace period to pay.
      const leewayEnd = sub.currentPeriodEnd.getTime() + deps.subscriptions.leewayHours * HOUR_MS;
      if (sub.status === 'active' && at >= leewayEnd) {
        const pastDue = await updateSubscription(
          tx,
          id,
          {
            status: 'past_due',
            graceUntil: new Date(at + deps.subscriptions.graceDays * DAY_MS),
            nextAttemptAt: new Date(at + DAY_MS),
          },
          now,
        );
        await emitSubscriptionEvent(tx, 'subscription.past_due', pastDue, deps.subscriptions);
        return { kind: 'past_due' };
      }
      await noteSubscription(tx, id, {
        nextAttemptAt: new Date(sub.status === 'active' ? leewayEnd : at + DAY_MS),
      });
      return { kind: 'none' };
    }
    if (
      sub.billingInterval === 'yearly' &&
      !sub.cancelAtPeriodEnd &&
      sub.currentPeriodEnd.getTime() - at <= 7 * DAY_MS &&
      sub.remindedFor?.getTime() !== sub.currentPeriodEnd.getTime()
    ) {
      await enqueueMail(
        tx,
        renewalReminderEmail({
          sub,
          manageUrl:
            sub.kind === 'plan'
              ? `${deps.publicUrl}/settings#plan`
              : `${deps.publicUrl}/purchases#subscription-${sub.id}`,
          testMode: deps.provider.testMode,
          brand: sub.sellerId
            ? emailBrand(await findShownBrand(tx, sub.sellerId), deps.publicUrl)
            : null,
        }),
      );
      await noteSubscription(tx, id, { remindedFor: sub.currentPeriodEnd });
      return { kind: 'reminded' };
    }
    return { kind: 'none' };
  });
}

/** Asks the provider to charge the card on file, then settles what it reports (as a webhook would). */
async function chargeRenewal(deps: RenewalsDeps, sub: Subscription, checkout: Checkout) {
  let verified;
  try {
    verified = await deps.provider.chargeSubscription!({
      providerSubscriptionId: sub.providerSubscriptionId!,
      txRef: checkout.txRef,
      amountMinor: checkout.amountMinor,
      currency: checkout.currency,
      buyerEmail: sub.buyerEmail,
      title: checkout.productTitle,
    });
  } catch (error) {
    if (!(error instanceof ProviderRejectedError)) throw error;
    deps.logger.warn(
      { subscriptionId: sub.id, err: error.message },
      'renewal refused by the provider',
    );
    return;
  }
  const outcome = await settleTransaction(deps, checkout.txRef, verified);
  deps.logger.info({ subscriptionId: sub.id, txRef: checkout.txRef, outcome }, 'renewal charged');
}

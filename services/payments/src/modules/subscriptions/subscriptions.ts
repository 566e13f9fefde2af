import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type SubscriptionSnapshot } from '@lockdrop/contracts';
import type { PoolClient, Queryable } from '@lockdrop/db';
import { enqueueMail } from '@lockdrop/mailer';
import {
  isPlanCurrency,
  planById,
  planPriceMinor,
  platformFeeMinor,
  splitSale,
  type Plan,
  type PlanId,
} from '@lockdrop/plans';
import {
  findCheckoutByTxRef,
  insertCheckout,
  setCheckoutStatus,
  type BillingInterval,
  type Checkout,
  type CheckoutStatus,
} from '../sales/index.js';
import { postJournal } from '../ledger/index.js';
import {
  emailBrand,
  findProduct,
  findSellerPlan,
  findShownBrand,
  upsertSellerPlan,
} from '../read-models/index.js';
import {
  findChargeForPeriod,
  findLivePlanSubscription,
  findSubscription,
  findSubscriptionsByProviderPlan,
  parkUnmatchedRenewal,
  insertCharge,
  insertSubscription,
  noteSubscription,
  updateSubscription,
  type Subscription,
} from './subscriptions.repository.js';
import type { PaymentProvider, VerifiedTransaction } from '../../providers/types.js';
import { planPaymentJournal } from '../ledger/index.js';
import { recordSale, type SaleDeps } from '../sales/index.js';
import { planReceiptEmail, renewalFailedEmail } from './subscription-emails.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How long access lasts around a period's end (from config; see SUBSCRIPTION_* in config.ts). */
export interface SubscriptionRules {
  graceDays: number;
  leewayHours: number;
}

/** What a subscription's charges and state changes read: a sale's needs, the provider and the rules. */
export interface SubscriptionDeps extends SaleDeps {
  provider: PaymentProvider;
  /** Called after a commit that queued an e-mail. */
  onMailQueued: () => void;
  subscriptions: SubscriptionRules;
}

/** The end of a period that starts at `from`: the same day next month (or the month's last day), or next year. */
export function periodEndAfter(from: Date, interval: BillingInterval): Date {
  const end = new Date(from);
  if (interval === 'yearly') {
    end.setUTCFullYear(end.getUTCFullYear() + 1);
    return end;
  }
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/**
 * The one rule for how long a subscriber may use what they pay for: to the period's end when
 * they cancelled, through the grace period when a renewal failed, a day past the period's end
 * while the renewal is being charged, and not at all once it ended.
 */
export function accessUntil(sub: Subscription, rules: SubscriptionRules): Date {
  if (sub.status === 'expired') return sub.endedAt ?? sub.updatedAt;
  if (sub.status === 'past_due') return sub.graceUntil ?? sub.currentPeriodEnd;
  if (sub.cancelAtPeriodEnd) return sub.currentPeriodEnd;
  return new Date(sub.currentPeriodEnd.getTime() + rules.leewayHours * HOUR_MS);
}

export function snapshotOf(sub: Subscription, rules: SubscriptionRules): SubscriptionSnapshot {
  return {
    subscriptionId: sub.id,
    kind: sub.kind,
    productId: sub.productId,
    sellerId: sub.sellerId,
    userId: sub.userId,
    plan: (sub.plan as PlanId | null) ?? null,
    buyerEmail: sub.buyerEmail,
    interval: sub.billingInterval,
    amountMinor: sub.amountMinor,
    currency: sub.currency,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
    accessUntil: accessUntil(sub, rules).toISOString(),
    revision: sub.revision,
    testMode: sub.testMode,
  };
}

export type SubscriptionEventType =
  | 'subscription.started'
  | 'subscription.renewed'
  | 'subscription.past_due'
  | 'subscription.cancelled'
  | 'subscription.resumed'
  | 'subscription.expired';

export async function emitSubscriptionEvent(
  tx: PoolClient,
  type: SubscriptionEventType,
  sub: Subscription,
  rules: SubscriptionRules,
): Promise<void> {
  await enqueueEvent(
    tx,
    createEvent(type, snapshotOf(sub, rules), { correlationId: sub.correlationId }),
  );
}

async function emitPlanChanged(
  tx: Queryable,
  userId: string,
  plan: string,
  previousPlan: string,
  correlationId: string,
): Promise<void> {
  if (plan === previousPlan) return;
  const event = createEvent(
    'plan.changed',
    { userId, plan: plan as PlanId, previousPlan: previousPlan as PlanId },
    { correlationId },
  );
  await enqueueEvent(tx, event);
  // Payments' own copy of the seller's plan changes with the commit: the next sale's fee and
  // /api/billing/plan agree at once, without waiting for the event to come back.
  await upsertSellerPlan(tx, userId, plan, event.occurredAt);
}

/** Ends a subscription now: access stops (delivery), and a plan falls back to free. */
export async function expireSubscription(
  tx: PoolClient,
  deps: SubscriptionDeps,
  sub: Subscription,
  reason: 'cancelled' | 'unpaid' | 'refunded' | 'replaced' | 'product_deleted',
): Promise<Subscription> {
  const ended = await updateSubscription(
    tx,
    sub.id,
    { status: 'expired', endedAt: deps.now(), endedReason: reason, nextAttemptAt: null },
    deps.now(),
  );
  await emitSubscriptionEvent(tx, 'subscription.expired', ended, deps.subscriptions);
  if (sub.kind === 'plan' && reason !== 'replaced') {
    const current = (await findSellerPlan(tx, sub.userId!)) ?? sub.plan!;
    await emitPlanChanged(tx, sub.userId!, 'free', current, sub.correlationId);
  }
  return ended;
}

/**
 * A renewal was declined: the subscription is past due, the subscriber keeps access through the
 * grace period and is told how to pay. A later decline of the same period changes nothing but
 * the retry schedule.
 */
export async function recordRenewalFailure(
  tx: PoolClient,
  deps: SubscriptionDeps,
  checkout: Checkout,
): Promise<void> {
  if (!checkout.subscriptionId || !checkout.renewsPeriodStart) return;
  const sub = await findSubscription(tx, checkout.subscriptionId, { forUpdate: true });
  if (!sub || sub.status === 'expired') return;
  if (sub.currentPeriodEnd.getTime() !== checkout.renewsPeriodStart.getTime()) return;
  const now = deps.now();
  if (sub.status === 'past_due') {
    await noteSubscription(tx, sub.id, {
      renewalAttempts: sub.renewalAttempts + 1,
      nextAttemptAt: new Date(now.getTime() + DAY_MS),
    });
    return;
  }
  const pastDue = await updateSubscription(
    tx,
    sub.id,
    {
      status: 'past_due',
      graceUntil: new Date(now.getTime() + deps.subscriptions.graceDays * DAY_MS),
      renewalAttempts: sub.renewalAttempts + 1,
      nextAttemptAt: new Date(now.getTime() + DAY_MS),
    },
    now,
  );
  await emitSubscriptionEvent(tx, 'subscription.past_due', pastDue, deps.subscriptions);
  await enqueueMail(
    tx,
    renewalFailedEmail({
      sub: pastDue,
      graceUntil: pastDue.graceUntil!,
      payUrl:
        sub.kind === 'plan'
          ? `${deps.publicUrl}/settings#plan`
          : `${deps.publicUrl}/purchases#subscription-${sub.id}`,
      testMode: deps.provider.testMode,
      brand: sub.sellerId
        ? emailBrand(await findShownBrand(tx, sub.sellerId), deps.publicUrl)
        : null,
    }),
  );
  deps.onMailQueued();
}

/**
 * Gives value for a verified charge of a recurring price, under the checkout's row lock (taken
 * by settlement): the first charge starts a subscription, a later one pays the period the
 * checkout was made for. A period already paid is not paid twice — the caller records the
 * second charge as money to hand back.
 */
export async function settleSubscriptionCharge(
  tx: PoolClient,
  deps: SubscriptionDeps,
  checkout: Checkout,
  verified: VerifiedTransaction,
): Promise<{ result: 'paid' | 'period_already_paid'; replaced: Subscription | null }> {
  const now = deps.now();
  const rules = deps.subscriptions;
  const interval = checkout.billingInterval!;
  let current = checkout.subscriptionId
    ? await findSubscription(tx, checkout.subscriptionId, { forUpdate: true })
    : null;
  const replaces =
    current !== null &&
    checkout.kind === 'plan' &&
    (checkout.planBought !== current.plan || interval !== current.billingInterval) &&
    checkout.renewsPeriodStart === null;

  let sub: Subscription;
  let replaced: Subscription | null = null;
  let periodStart: Date;
  let eventType: 'subscription.started' | 'subscription.renewed';
  if (current && !replaces) {
    periodStart = checkout.renewsPeriodStart ?? current.currentPeriodEnd;
    if (current.status === 'expired' || (await findChargeForPeriod(tx, current.id, periodStart)))
      return { result: 'period_already_paid', replaced: null };
    sub = await updateSubscription(
      tx,
      current.id,
      {
        status: 'active',
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEndAfter(periodStart, interval),
        graceUntil: null,
        renewalAttempts: 0,
        nextAttemptAt: null,
        amountMinor: checkout.amountMinor,
        billingInterval: interval,
        plan: checkout.kind === 'plan' ? checkout.planBought : current.plan,
        pendingPlan: null,
        pendingInterval: null,
        // Paid again through a new checkout (after a decline): renewals charge the new card.
        providerSubscriptionId: verified.providerSubscriptionId ?? current.providerSubscriptionId,
      },
      now,
    );
    eventType = 'subscription.renewed';
  } else {
    // A plan bought while another is live (two checkouts paid, or an upgrade): the newest
    // payment's plan wins and the other subscription ends, so a seller has one live plan.
    const live =
      checkout.kind === 'plan'
        ? (current ?? (await findLivePlanSubscription(tx, checkout.userId, { forUpdate: true })))
        : null;
    if (current && replaces && current.status === 'expired')
      return { result: 'period_already_paid', replaced: null };
    if (live && live.status !== 'expired') {
      await expireSubscription(tx, deps, live, 'replaced');
      replaced = live;
    }
    periodStart = now;
    sub = await insertSubscription(tx, {
      id: randomUUID(),
      kind: checkout.kind,
      provider: checkout.provider,
      productId: checkout.productId,
      sellerId: checkout.sellerId,
      userId: checkout.userId,
      plan: checkout.planBought,
      title: checkout.productTitle,
      fileId: checkout.fileId,
      fileName: checkout.fileName,
      buyerEmail: checkout.buyerEmail,
      browserKeyHash: checkout.browserKeyHash,
      billingInterval: interval,
      amountMinor: checkout.amountMinor,
      currency: checkout.currency,
      currentPeriodStart: periodStart,
      currentPeriodEnd: periodEndAfter(periodStart, interval),
      providerPlanId: verified.paymentPlanId ?? null,
      providerSubscriptionId: verified.providerSubscriptionId ?? null,
      firstCheckoutId: checkout.id,
      correlationId: checkout.correlationId,
      createdAt: now,
      testMode: deps.provider.testMode,
    });
    eventType = 'subscription.started';
  }
  current = sub;

  const chargeId = randomUUID();
  let purchaseId: string | null = null;
  let processorFeeMinor: number;
  if (checkout.kind === 'product') {
    const snapshot = snapshotOf(sub, rules);
    ({ purchaseId, processorFeeMinor } = await recordSale(tx, deps, checkout, verified, {
      subscriptionId: sub.id,
      accessUntil: snapshot.accessUntil,
      revision: snapshot.revision,
      status: snapshot.status,
    }));
  } else {
    processorFeeMinor = splitSale({
      amountMinor: checkout.amountMinor,
      platformFeeMinor: 0,
      reportedProcessorFeeMinor: verified.processorFeeMinor,
      processorFeeBps: deps.processorFeeBps,
    }).processorFeeMinor;
  }
  await insertCharge(tx, {
    id: chargeId,
    subscriptionId: sub.id,
    provider: checkout.provider,
    providerTransactionId: verified.transactionId,
    txRef: checkout.txRef,
    periodStart,
    periodEnd: sub.currentPeriodEnd,
    amountMinor: checkout.amountMinor,
    currency: checkout.currency,
    processorFeeMinor,
    purchaseId,
    createdAt: now,
  });
  if (checkout.kind === 'plan') {
    await postJournal(
      tx,
      { chargeId },
      'plan_payment',
      checkout.currency,
      planPaymentJournal(checkout.amountMinor, processorFeeMinor),
    );
    await setCheckoutStatus(tx, checkout.id, 'paid', ['creating', 'open', 'failed', 'not_started']);
    const previous = (await findSellerPlan(tx, sub.userId!)) ?? 'free';
    await emitPlanChanged(tx, sub.userId!, sub.plan!, previous, checkout.correlationId);
    await enqueueMail(
      tx,
      planReceiptEmail({
        sub,
        amountMinor: checkout.amountMinor,
        txRef: checkout.txRef,
        settingsUrl: `${deps.publicUrl}/settings#plan`,
        testMode: deps.provider.testMode,
      }),
    );
  }
  await emitSubscriptionEvent(tx, eventType, sub, rules);
  return { result: 'paid', replaced };
}

/** The provider's handle on a subscription, to stop or restart its charges. */
export const providerRefOf = (sub: Subscription) => ({
  providerSubscriptionId: sub.providerSubscriptionId,
  providerPlanId: sub.providerPlanId,
  buyerEmail: sub.buyerEmail,
});

/**
 * After a commit that ended a subscription the provider may still charge (replaced by a plan
 * change, or unpaid past its grace): told best effort, as the subscription ended here anyway.
 */
export async function stopProviderCharges(
  deps: Pick<SubscriptionDeps, 'provider'> & { logger?: { warn(o: object, m: string): void } },
  sub: Subscription,
): Promise<void> {
  await deps.provider.cancelSubscription(providerRefOf(sub)).catch((error: unknown) => {
    deps.logger?.warn(
      { err: error, subscriptionId: sub.id },
      'provider subscription not cancelled',
    );
  });
}

/** What a plan costs per interval in the currency it is paid in (libs/plans: the one table). */
export function planPrice(plan: Plan, interval: BillingInterval, currency: string): number {
  if (!isPlanCurrency(currency)) throw new Error(`plans are not priced in ${currency}`);
  return planPriceMinor(plan, interval, currency);
}

/**
 * Records the checkout that pays the period after the current one: the price the subscription
 * renews at (a plan's scheduled change applies here), the seller's plan fee as of now (a plan
 * change applies to the next sale, renewals included) and the product's current file.
 */
export async function insertRenewalCheckout(
  tx: PoolClient,
  deps: SubscriptionDeps,
  sub: Subscription,
  txRef: string,
  status: CheckoutStatus,
): Promise<Checkout> {
  const checkout = await buildRenewalCheckout(tx, deps, sub, txRef, status);
  await insertCheckout(tx, checkout);
  return checkout;
}

/** The renewal checkout of `insertRenewalCheckout`, not yet recorded (a "pay now" opens it). */
export async function buildRenewalCheckout(
  db: Queryable,
  deps: Pick<SubscriptionDeps, 'now'>,
  sub: Subscription,
  txRef: string,
  status: CheckoutStatus,
): Promise<Checkout> {
  const tx = db;
  const now = deps.now();
  let interval = sub.billingInterval;
  let amountMinor = sub.amountMinor;
  let planBought = sub.plan;
  if (sub.kind === 'plan') {
    const next = planById(sub.pendingPlan ?? sub.plan);
    interval = sub.pendingInterval ?? sub.billingInterval;
    amountMinor = planPrice(next, interval, sub.currency);
    planBought = next.id;
  }
  const sellerPlan =
    sub.kind === 'product' ? planById(await findSellerPlan(tx, sub.sellerId!)) : null;
  const product = sub.productId ? await findProduct(tx, sub.productId) : null;
  const current = product && !product.deleted ? product : null;
  const record = {
    id: randomUUID(),
    txRef,
    provider: sub.provider,
    status,
    billingInterval: interval,
    subscriptionId: sub.id,
    renewsPeriodStart: sub.currentPeriodEnd,
    // A renewal starts on no page: its receipt links to Lockdrop's address.
    storeOrigin: null,
    discountCodeId: null,
    discountCode: null,
    discountMinor: 0,
    expiresAt: null,
    productTitle: current?.title ?? sub.title,
    buyerEmail: sub.buyerEmail,
    priceMinor: amountMinor,
    priceCurrency: sub.currency,
    amountMinor,
    currency: sub.currency,
    fxRate: null,
    plan: sellerPlan?.id ?? planBought!,
    platformFeeBps: sellerPlan?.platformFeeBps ?? 0,
    platformFeeMinor: sellerPlan ? platformFeeMinor(sellerPlan, amountMinor) : 0,
    link: null,
    browserKeyHash: sub.browserKeyHash,
    correlationId: sub.correlationId,
    createdAt: now,
  };
  const checkout: Checkout =
    sub.kind === 'plan'
      ? {
          ...record,
          kind: 'plan',
          userId: sub.userId!,
          planBought: planBought!,
          productId: null,
          sellerId: null,
          fileId: null,
          fileName: null,
        }
      : {
          ...record,
          kind: 'product',
          userId: null,
          planBought: null,
          productId: sub.productId!,
          sellerId: sub.sellerId!,
          fileId: current?.fileId ?? sub.fileId,
          fileName: current?.fileName ?? sub.fileName,
        };
  return checkout;
}

/**
 * A charge the provider made on its own under a payment plan (a Flutterwave renewal), whose
 * `tx_ref` we never issued. Every subscription has a plan of its own, so the plan names the
 * subscription; the buyer's e-mail must agree. A charge that names none of ours is `null`; one
 * that could be several subscriptions' (plans shared before that rule), or whose buyer differs,
 * is parked for an operator (`unmatched`) and credited to nobody. Otherwise its checkout is
 * recorded here so it settles like any payment.
 */
export async function adoptProviderRenewal(
  tx: PoolClient,
  deps: SubscriptionDeps,
  txRef: string,
  verified: VerifiedTransaction,
): Promise<Checkout | 'unmatched' | null> {
  if (!verified.paymentPlanId) return null;
  const candidates = await findSubscriptionsByProviderPlan(
    tx,
    deps.provider.name,
    verified.paymentPlanId,
  );
  if (candidates.length === 0) return null;
  const [only] = candidates;
  const sameBuyer = only!.buyerEmail.toLowerCase() === (verified.customerEmail ?? '').toLowerCase();
  if (candidates.length > 1 || !sameBuyer) {
    await parkUnmatchedRenewal(tx, {
      provider: deps.provider.name,
      transactionId: verified.transactionId,
      txRef,
      providerPlanId: verified.paymentPlanId,
      customerEmail: verified.customerEmail ?? null,
      amountMinor: verified.amountMinor,
      currency: verified.currency,
      candidates: candidates.map((candidate) => candidate.id),
      reason: candidates.length > 1 ? 'several_subscriptions' : 'buyer_differs',
    });
    return 'unmatched';
  }
  const locked = await findSubscription(tx, only!.id, { forUpdate: true });
  if (!locked || locked.status === 'expired') return null;
  // A duplicate notification that waited for the lock finds the checkout the first one made.
  const adopted = await findCheckoutByTxRef(tx, txRef, { forUpdate: true });
  return adopted ?? insertRenewalCheckout(tx, deps, locked, txRef, 'open');
}

/**
 * A charge of this subscription was refunded or charged back: it ends now (access with it), and
 * the provider is told to stop charging. Called inside the refund's transaction; the provider
 * call is best effort (the subscription has ended here whatever it answers).
 */
export async function endRefundedSubscription(
  tx: Queryable,
  deps: {
    providers: ReadonlyMap<string, Pick<PaymentProvider, 'cancelSubscription'>>;
    subscriptions: SubscriptionRules;
    logger: { warn(object: object, message: string): void };
  },
  subscriptionId: string,
  at: Date,
): Promise<void> {
  const sub = await findSubscription(tx, subscriptionId, { forUpdate: true });
  if (!sub || sub.status === 'expired') return;
  const ended = await updateSubscription(
    tx,
    sub.id,
    { status: 'expired', endedAt: at, endedReason: 'refunded', nextAttemptAt: null },
    at,
  );
  await enqueueEvent(
    tx,
    createEvent('subscription.expired', snapshotOf(ended, deps.subscriptions), {
      correlationId: sub.correlationId,
    }),
  );
  // A seller's refunded plan (the annual refund) ends now: back to Free, as expireSubscription does.
  if (sub.kind === 'plan') {
    const current = (await findSellerPlan(tx, sub.userId!)) ?? sub.plan!;
    await emitPlanChanged(tx, sub.userId!, 'free', current, sub.correlationId);
  }
  const provider = deps.providers.get(sub.provider);
  await provider?.cancelSubscription(providerRefOf(sub)).catch((error: unknown) => {
    deps.logger.warn({ err: error, subscriptionId: sub.id }, 'provider subscription not cancelled');
  });
}

import { randomUUID } from 'node:crypto';
import type { AuthUser } from '@lockdrop/auth';
import type {
  PlanBilling,
  PlanCancelResult,
  PlanChangeRequest,
  PlanChangeResult,
  PlanId,
} from '@lockdrop/contracts';
import { withTransaction } from '@lockdrop/db';
import { errors } from '@lockdrop/http';
import { planById } from '@lockdrop/plans';
import type { NewCheckout } from '../sales/index.js';
import { findSellerPlan } from '../read-models/index.js';
import {
  findLivePlanSubscription,
  findSubscription,
  latestCharge,
  updateSubscription,
  type Subscription,
} from '../subscriptions/index.js';
import { newTxRef, openCheckout } from '../checkout/index.js';
import { findLiveChargeRefund, recordChargeRefund, requestChargeRefund } from '../refunds/index.js';
import { cancelAtPeriodEnd, toSubscriptionView } from './subscription-actions.js';
import type { RenewalsDeps } from './subscription-clock.js';
import { expireSubscription, planPrice, stopProviderCharges } from '../subscriptions/index.js';
import type { BillingInterval } from '@lockdrop/contracts';

const DAY_MS = 86_400_000;
/** Terms: annual plans cancelled within 30 days of payment are refunded pro rata. */
export const ANNUAL_REFUND_DAYS = 30;

/** What a plan costs per month, to compare plans bought per month and per year. */
const monthlyValue = (plan: PlanId, interval: BillingInterval, currency: string) =>
  planPrice(planById(plan), interval, currency) / (interval === 'yearly' ? 12 : 1);

function refundableUntil(sub: Subscription): Date | null {
  if (sub.billingInterval !== 'yearly' || sub.status === 'expired') return null;
  return new Date(sub.currentPeriodStart.getTime() + ANNUAL_REFUND_DAYS * DAY_MS);
}

/** The seller's plan (as identity last told us) and the subscription paying for it. */
export async function getPlanBilling(deps: RenewalsDeps, user: AuthUser): Promise<PlanBilling> {
  const plan = planById(await findSellerPlan(deps.pool, user.id)).id;
  const sub = await findLivePlanSubscription(deps.pool, user.id);
  return {
    plan,
    subscription: sub
      ? {
          ...toSubscriptionView(sub, deps.subscriptions, deps.provider.testMode),
          plan: planById(sub.plan).id,
          pendingPlan: sub.pendingPlan ? planById(sub.pendingPlan).id : null,
          pendingInterval: sub.pendingInterval,
          refundableUntil: refundableUntil(sub)?.toISOString() ?? null,
        }
      : null,
  };
}

/**
 * Start paying for a plan, or change the one paid for. Upgrades (a dearer plan on the same
 * interval, or monthly to yearly) are paid now, with the unused part of the current period
 * credited, and start a new period; downgrades and yearly to monthly wait for the period's end.
 */
export async function changePlan(
  deps: RenewalsDeps,
  user: AuthUser,
  request: PlanChangeRequest,
): Promise<PlanChangeResult> {
  const live = await findLivePlanSubscription(deps.pool, user.id);
  if (request.plan === 'free') {
    if (!live) throw errors.conflict('plan_unchanged', 'You are already on the Free plan');
    const view = await cancelAtPeriodEnd(deps, user, live.id);
    return { outcome: 'scheduled', effectiveAt: view.currentPeriodEnd };
  }
  const target = planById(request.plan);
  if (!live) {
    const currency = request.currency ?? 'USD';
    return openPlanCheckout(
      deps,
      user,
      request,
      currency,
      planPrice(target, request.interval, currency),
      null,
    );
  }
  // A plan paid for is changed in its own currency: the credit for the unused period and the
  // renewals are in it.
  if (request.currency && request.currency !== live.currency)
    throw errors.conflict(
      'plan_currency_fixed',
      `Your plan is paid in ${live.currency}: change it in ${live.currency}, or cancel it and choose the new plan in ${request.currency} when it ends`,
    );
  const currency = live.currency;
  if (live.status === 'past_due')
    throw errors.conflict(
      'plan_past_due',
      'Your last plan payment did not go through: pay it first, then change plans',
    );
  const current = planById(live.plan);
  if (current.id === target.id && live.billingInterval === request.interval) {
    if (live.pendingPlan || live.pendingInterval) {
      await withTransaction(deps.pool, async (tx) => {
        await findSubscription(tx, live.id, { forUpdate: true });
        await updateSubscription(
          tx,
          live.id,
          { pendingPlan: null, pendingInterval: null },
          deps.now(),
        );
      });
      return { outcome: 'scheduled', effectiveAt: live.currentPeriodEnd.toISOString() };
    }
    throw errors.conflict('plan_unchanged', `You are already on the ${target.name} plan`);
  }
  const upgrade =
    monthlyValue(target.id, request.interval, currency) >
      monthlyValue(current.id, live.billingInterval, currency) &&
    !(live.billingInterval === 'yearly' && request.interval === 'monthly');
  if (upgrade) {
    const now = deps.now().getTime();
    const period = live.currentPeriodEnd.getTime() - live.currentPeriodStart.getTime();
    const unused = Math.max(0, live.currentPeriodEnd.getTime() - now);
    const credit =
      live.cancelAtPeriodEnd || period <= 0 ? 0 : Math.floor((live.amountMinor * unused) / period);
    const amount = Math.max(planPrice(target, request.interval, currency) - credit, 1);
    return openPlanCheckout(deps, user, request, currency, amount, live.id);
  }
  if (!deps.provider.chargeSubscription)
    throw errors.conflict(
      'change_at_renewal_unavailable',
      'With this payment provider, cancel your plan and choose the new one when this period ends',
    );
  await withTransaction(deps.pool, async (tx) => {
    await findSubscription(tx, live.id, { forUpdate: true });
    await updateSubscription(
      tx,
      live.id,
      { pendingPlan: target.id, pendingInterval: request.interval, cancelAtPeriodEnd: false },
      deps.now(),
    );
  });
  return { outcome: 'scheduled', effectiveAt: live.currentPeriodEnd.toISOString() };
}

async function openPlanCheckout(
  deps: RenewalsDeps,
  user: AuthUser,
  request: PlanChangeRequest,
  currency: string,
  amountMinor: number,
  replacing: string | null,
): Promise<PlanChangeResult> {
  const plan = planById(request.plan);
  const checkout: NewCheckout = {
    id: randomUUID(),
    txRef: newTxRef(),
    provider: deps.provider.name,
    status: 'creating',
    kind: 'plan',
    billingInterval: request.interval,
    userId: user.id,
    planBought: plan.id,
    subscriptionId: replacing,
    renewsPeriodStart: null,
    storeOrigin: null,
    discountCodeId: null,
    discountCode: null,
    discountMinor: 0,
    expiresAt: null,
    productId: null,
    sellerId: null,
    productTitle: `Lockdrop ${plan.name}`,
    fileId: null,
    fileName: null,
    buyerEmail: user.email,
    priceMinor: planPrice(plan, request.interval, currency),
    priceCurrency: currency,
    amountMinor,
    currency,
    fxRate: null,
    plan: plan.id,
    platformFeeBps: 0,
    platformFeeMinor: 0,
    browserKeyHash: null,
    correlationId: randomUUID(),
    createdAt: deps.now(),
  };
  const { link } = await openCheckout(deps.checkout, checkout);
  return { outcome: 'checkout', link, amountMinor };
}

/**
 * Cancels the plan: at period end, or — an annual plan within 30 days of its payment (terms) —
 * now, refunding the unused part of the year and going back to Free at once.
 *
 * The refund is a record before it is a request (the refunds module's pattern, shared with
 * sales): under the subscription's lock the refund of the latest charge is committed with its
 * first check scheduled, then the provider is asked. A confirmed refund ends the plan at once; a
 * refusal leaves the plan as it was; a lost answer (a timeout, a 5xx after the provider may have
 * acted) leaves the refund in progress for the reconciler, which ends the plan when the provider
 * confirms — and a second click meanwhile finds the record, never asks the provider again.
 */
export async function cancelPlan(
  deps: RenewalsDeps,
  user: AuthUser,
  { refund }: { refund: boolean },
): Promise<PlanCancelResult> {
  const live = await findLivePlanSubscription(deps.pool, user.id);
  if (!live) throw errors.conflict('plan_unchanged', 'You are already on the Free plan');
  if (!refund) {
    const view = await cancelAtPeriodEnd(deps, user, live.id);
    return {
      refundedMinor: 0,
      currency: live.currency,
      endsAt: view.currentPeriodEnd,
      refundStatus: 'none',
      pendingRefundMinor: null,
    };
  }
  const refundId = randomUUID();
  const recorded = await withTransaction(deps.pool, async (tx) => {
    const sub = (await findSubscription(tx, live.id, { forUpdate: true }))!;
    if (sub.status === 'expired')
      throw errors.conflict('plan_unchanged', 'This plan has already ended');
    const charge = await latestCharge(tx, sub.id);
    // Checked under the lock, before the window: a refund asked in time is not refused later.
    if (charge && (await findLiveChargeRefund(tx, charge.id)))
      throw errors.conflict(
        'refund_in_progress',
        'A refund of this plan is in progress; your plan ends when the payment provider confirms it',
      );
    const until = refundableUntil(sub);
    if (!until || deps.now() > until)
      throw errors.conflict(
        'refund_window_closed',
        `Only annual plans cancelled within ${ANNUAL_REFUND_DAYS} days of payment are refunded`,
      );
    if (!charge || charge.refundedMinor > 0)
      throw errors.conflict('refund_window_closed', 'This payment was already refunded');
    const now = deps.now();
    const period = charge.periodEnd.getTime() - charge.periodStart.getTime();
    const unused = Math.max(0, charge.periodEnd.getTime() - now.getTime());
    const refundMinor = Math.floor((charge.amountMinor * unused) / period);
    if (refundMinor === 0) {
      // Nothing to give back: the plan simply ends now.
      await expireSubscription(tx, deps, sub, 'refunded');
      return { sub, refundMinor, currency: charge.currency };
    }
    await recordChargeRefund(tx, deps.refunds, {
      id: refundId,
      charge,
      amountMinor: refundMinor,
      requestedBy: user.id,
      correlationId: sub.correlationId,
    });
    return { sub, refundMinor, currency: charge.currency };
  });
  if (recorded.refundMinor === 0) {
    await stopProviderCharges(deps, recorded.sub);
    return {
      refundedMinor: 0,
      currency: recorded.currency,
      endsAt: deps.now().toISOString(),
      refundStatus: 'none',
      pendingRefundMinor: null,
    };
  }
  const outcome = await requestChargeRefund(deps.refunds, refundId);
  if (outcome.status === 'failed')
    throw errors.conflict('refund_failed', 'The payment provider refused this refund');
  if (outcome.status === 'succeeded')
    return {
      refundedMinor: outcome.amountMinor,
      currency: outcome.currency,
      endsAt: (outcome.completedAt ?? deps.now()).toISOString(),
      refundStatus: 'succeeded',
      pendingRefundMinor: null,
    };
  // Asked, answer not known yet: the plan stays until the provider confirms the refund.
  return {
    refundedMinor: 0,
    currency: outcome.currency,
    endsAt: null,
    refundStatus: 'pending',
    pendingRefundMinor: outcome.amountMinor,
  };
}

import { randomUUID } from 'node:crypto';
import type { AuthUser } from '@lockdrop/auth';
import type { PlanBilling, PlanChangeRequest, PlanChangeResult, PlanId } from '@lockdrop/contracts';
import { withTransaction } from '@lockdrop/db';
import { errors } from '@lockdrop/http';
import { planById } from '@lockdrop/plans';
import type { NewCheckout } from '../sales/index.js';
import { postJournal } from '../ledger/index.js';
import { findSellerPlan } from '../read-models/index.js';
import {
  addChargeRefund,
  findLivePlanSubscription,
  findSubscription,
  latestCharge,
  updateSubscription,
  type Subscription,
} from '../subscriptions/index.js';
import { ProviderRejectedError } from '../../providers/types.js';
import { newTxRef, openCheckout } from '../checkout/index.js';
import { planRefundJournal } from '../ledger/index.js';
import { cancelAtPeriodEnd, providerFailure, toSubscriptionView } from './subscription-actions.js';
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
 */
export async function cancelPlan(
  deps: RenewalsDeps,
  user: AuthUser,
  { refund }: { refund: boolean },
): Promise<{ refundedMinor: number; currency: string; endsAt: string }> {
  const live = await findLivePlanSubscription(deps.pool, user.id);
  if (!live) throw errors.conflict('plan_unchanged', 'You are already on the Free plan');
  if (!refund) {
    const view = await cancelAtPeriodEnd(deps, user, live.id);
    return { refundedMinor: 0, currency: live.currency, endsAt: view.currentPeriodEnd };
  }
  const until = refundableUntil(live);
  if (!until || deps.now() > until)
    throw errors.conflict(
      'refund_window_closed',
      `Only annual plans cancelled within ${ANNUAL_REFUND_DAYS} days of payment are refunded`,
    );
  return withTransaction(deps.pool, async (tx) => {
    const sub = (await findSubscription(tx, live.id, { forUpdate: true }))!;
    if (sub.status === 'expired')
      throw errors.conflict('plan_unchanged', 'This plan has already ended');
    const charge = await latestCharge(tx, sub.id);
    if (!charge || charge.refundedMinor > 0)
      throw errors.conflict('refund_window_closed', 'This payment was already refunded');
    const now = deps.now();
    const period = charge.periodEnd.getTime() - charge.periodStart.getTime();
    const unused = Math.max(0, charge.periodEnd.getTime() - now.getTime());
    const refundMinor = Math.floor((charge.amountMinor * unused) / period);
    if (refundMinor > 0) {
      // Under the subscription's lock, so two clicks cannot refund twice (the journal is unique too).
      try {
        const result = await deps.provider.refund(
          charge.providerTransactionId,
          refundMinor,
          charge.currency,
        );
        if (result.status === 'failed') throw new ProviderRejectedError(result.failureReason ?? '');
      } catch (error) {
        if (error instanceof ProviderRejectedError)
          throw errors.conflict('refund_failed', 'The payment provider refused this refund');
        throw providerFailure(error);
      }
      await addChargeRefund(tx, charge.id, refundMinor);
      await postJournal(
        tx,
        { chargeId: charge.id },
        'plan_refund',
        charge.currency,
        planRefundJournal(refundMinor),
      );
    }
    await expireSubscription(tx, deps, sub, 'refunded');
    // Best effort after the refund: the subscription ended here whatever the provider says.
    await stopProviderCharges(deps, sub);
    return { refundedMinor: refundMinor, currency: charge.currency, endsAt: now.toISOString() };
  });
}

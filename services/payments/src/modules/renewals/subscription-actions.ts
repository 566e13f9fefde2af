import type { AuthUser } from '@lockdrop/auth';
import type { SubscriptionView } from '@lockdrop/contracts';
import { withTransaction } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import {
  findSubscription,
  listBuyerSubscriptions,
  noteSubscription,
  updateSubscription,
  type Subscription,
} from '../subscriptions/index.js';
import { ProviderRejectedError } from '../../providers/types.js';
import { keyOwns } from '../sales/index.js';
import { newTxRef, openCheckout } from '../checkout/index.js';
import { renewNow, type RenewalsDeps } from './subscription-clock.js';
import {
  accessUntil,
  buildRenewalCheckout,
  emitSubscriptionEvent,
  providerRefOf,
  type SubscriptionRules,
} from '../subscriptions/index.js';

export function toSubscriptionView(
  sub: Subscription,
  rules: SubscriptionRules,
  testMode: boolean,
): SubscriptionView {
  const renews = sub.status !== 'expired' && !sub.cancelAtPeriodEnd;
  return {
    id: sub.id,
    productId: sub.productId,
    title: sub.title,
    interval: sub.billingInterval,
    amountMinor: sub.amountMinor,
    currency: sub.currency,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
    nextRenewalAt: renews ? sub.currentPeriodEnd.toISOString() : null,
    accessUntil: accessUntil(sub, rules).toISOString(),
    graceUntil: sub.status === 'past_due' ? (sub.graceUntil?.toISOString() ?? null) : null,
    endedAt: sub.endedAt?.toISOString() ?? null,
    testMode: testMode && sub.provider === 'sandbox',
  };
}

/** The signed-in buyer's product subscriptions, matched by their verified e-mail (as purchases are). */
export async function listMySubscriptions(
  deps: RenewalsDeps,
  user: AuthUser,
): Promise<SubscriptionView[]> {
  if (!user.emailVerified) return [];
  const subs = await listBuyerSubscriptions(deps.pool, user.email);
  return subs.map((sub) => toSubscriptionView(sub, deps.subscriptions, deps.provider.testMode));
}

const notFound = () => errors.notFound('subscription_not_found', 'Subscription not found');

/**
 * The subscription if this user holds it: a product's by verified e-mail, a plan's by account.
 * Someone acting for a store (its owner after a transfer) holds its plan, never the product
 * subscriptions the account's person bought as a buyer.
 */
export function isHolder(sub: Subscription, user: AuthUser): boolean {
  if (sub.kind === 'plan') return sub.userId === user.id;
  if (user.actor) return false;
  return user.emailVerified && sub.buyerEmail.toLowerCase() === user.email.toLowerCase();
}

async function heldSubscription(
  deps: RenewalsDeps,
  user: AuthUser,
  id: string,
): Promise<Subscription> {
  const sub = await findSubscription(deps.pool, id);
  if (!sub || !isHolder(sub, user)) throw notFound();
  return sub;
}

/** The provider could not be told: nothing changed here, so the subscriber can simply retry. */
export function providerFailure(error: unknown): AppError {
  if (error instanceof ProviderRejectedError)
    return errors.conflict('provider_refused', 'The payment provider refused this change');
  return new AppError(
    'provider_unavailable',
    502,
    'The payment provider could not be reached, please try again',
  );
}

/**
 * The product subscription if this API key's seller sold it, in the key's mode (issue 27; the
 * rule is `keyOwns`). Anything else is not found: a key learns nothing about other sellers'.
 */
export async function soldSubscription(
  deps: Pick<RenewalsDeps, 'pool'>,
  user: AuthUser,
  id: string,
): Promise<Subscription> {
  const sub = await findSubscription(deps.pool, id);
  if (!sub || sub.kind !== 'product' || !keyOwns(user, sub)) throw notFound();
  return sub;
}

/**
 * Cancel at period end (`cancel`), or take that back while the period lasts. The provider is
 * told first, so a failure leaves the subscription as it was; access lasts until the period ends.
 * The caller has found `held` as its subscriber's (or, through the API, its seller's).
 */
async function setCancelAtPeriodEnd(
  deps: RenewalsDeps,
  held: Subscription,
  cancel: boolean,
): Promise<Subscription> {
  const id = held.id;
  if (held.status === 'expired' || (!cancel && held.currentPeriodEnd <= deps.now()))
    throw errors.conflict(
      'subscription_ended',
      cancel
        ? 'This subscription has already ended'
        : 'This subscription has ended; subscribe again to continue',
    );
  if (held.cancelAtPeriodEnd !== cancel) {
    try {
      const ref = providerRefOf(held);
      await (cancel
        ? deps.provider.cancelSubscription(ref)
        : deps.provider.resumeSubscription(ref));
    } catch (error) {
      throw providerFailure(error);
    }
  }
  const sub = await withTransaction(deps.pool, async (tx) => {
    const current = (await findSubscription(tx, id, { forUpdate: true }))!;
    if (current.cancelAtPeriodEnd === cancel || current.status === 'expired') return current;
    const changed = await updateSubscription(
      tx,
      id,
      // A cancelled plan keeps no scheduled change.
      cancel
        ? { cancelAtPeriodEnd: true, pendingPlan: null, pendingInterval: null }
        : { cancelAtPeriodEnd: false },
      deps.now(),
    );
    await emitSubscriptionEvent(
      tx,
      cancel ? 'subscription.cancelled' : 'subscription.resumed',
      changed,
      deps.subscriptions,
    );
    return changed;
  });
  return sub;
}

const asSubscriber = async (
  deps: RenewalsDeps,
  user: AuthUser,
  id: string,
  cancel: boolean,
): Promise<SubscriptionView> =>
  toSubscriptionView(
    await setCancelAtPeriodEnd(deps, await heldSubscription(deps, user, id), cancel),
    deps.subscriptions,
    deps.provider.testMode,
  );

export const cancelAtPeriodEnd = (deps: RenewalsDeps, user: AuthUser, id: string) =>
  asSubscriber(deps, user, id, true);

export const resumeSubscription = (deps: RenewalsDeps, user: AuthUser, id: string) =>
  asSubscriber(deps, user, id, false);

/** The public API's cancel: the seller ends a subscriber's renewals at the period's end. */
export async function cancelSoldSubscription(
  deps: RenewalsDeps,
  user: AuthUser,
  id: string,
): Promise<Subscription> {
  return setCancelAtPeriodEnd(deps, await soldSubscription(deps, user, id), true);
}

/** A past-due subscription's "Pay now": a checkout for the unpaid period, on the provider's page. */
export async function payPastDue(
  deps: RenewalsDeps,
  user: AuthUser,
  id: string,
): Promise<{ link: string; txRef: string }> {
  const sub = await heldSubscription(deps, user, id);
  if (sub.status !== 'past_due')
    throw errors.conflict('nothing_to_pay', 'This subscription has nothing to pay');
  const checkout = await buildRenewalCheckout(deps.pool, deps, sub, newTxRef(), 'creating');
  return openCheckout(deps.checkout, checkout);
}

/** Sandbox test controls, so the renewal paths can be tried in seconds instead of a month. */
export async function sandboxControl(
  deps: RenewalsDeps & { failNextCharge: (token: string) => Promise<void> },
  user: AuthUser,
  id: string,
  action: 'renew_now' | 'fail_next_renewal',
): Promise<SubscriptionView> {
  const held = await heldSubscription(deps, user, id);
  if (held.provider !== 'sandbox' || !held.providerSubscriptionId)
    throw errors.conflict(
      'not_a_test_subscription',
      'Only sandbox subscriptions have test controls',
    );
  if (action === 'fail_next_renewal') await deps.failNextCharge(held.providerSubscriptionId);
  else {
    if (held.status === 'expired' || held.cancelAtPeriodEnd)
      throw errors.conflict('subscription_ended', 'This subscription does not renew');
    await noteSubscription(deps.pool, id, { nextAttemptAt: null });
    await renewNow(deps, id);
  }
  return toSubscriptionView(
    (await findSubscription(deps.pool, id))!,
    deps.subscriptions,
    deps.provider.testMode,
  );
}

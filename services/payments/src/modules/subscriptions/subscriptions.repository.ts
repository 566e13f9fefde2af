import type { Queryable } from '@lockdrop/db';
import { keysetPage } from '../../db/keyset.js';
import type { BillingInterval } from '../sales/index.js';

export type SubscriptionStatus = 'active' | 'past_due' | 'expired';
export type SubscriptionKind = 'product' | 'plan';

export interface Subscription {
  id: string;
  kind: SubscriptionKind;
  provider: string;
  productId: string | null;
  sellerId: string | null;
  userId: string | null;
  plan: string | null;
  title: string;
  fileId: string | null;
  fileName: string | null;
  buyerEmail: string;
  browserKeyHash: string | null;
  billingInterval: BillingInterval;
  amountMinor: number;
  currency: string;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  graceUntil: Date | null;
  endedAt: Date | null;
  endedReason: string | null;
  providerPlanId: string | null;
  providerSubscriptionId: string | null;
  renewalAttempts: number;
  nextAttemptAt: Date | null;
  remindedFor: Date | null;
  pendingPlan: string | null;
  pendingInterval: BillingInterval | null;
  revision: number;
  firstCheckoutId: string;
  correlationId: string;
  createdAt: Date;
  updatedAt: Date;
  /** Charged through the sandbox or a provider's test keys (as its purchases are): no real money. */
  testMode: boolean;
}

const COLUMNS = `id, kind, provider, product_id AS "productId", seller_id AS "sellerId", user_id AS "userId", plan,
  title, file_id AS "fileId", file_name AS "fileName", buyer_email AS "buyerEmail",
  browser_key_hash AS "browserKeyHash", billing_interval AS "billingInterval", amount_minor AS "amountMinor",
  currency, status, cancel_at_period_end AS "cancelAtPeriodEnd", current_period_start AS "currentPeriodStart",
  current_period_end AS "currentPeriodEnd", grace_until AS "graceUntil", ended_at AS "endedAt",
  ended_reason AS "endedReason", provider_plan_id AS "providerPlanId",
  provider_subscription_id AS "providerSubscriptionId", renewal_attempts AS "renewalAttempts",
  next_attempt_at AS "nextAttemptAt", reminded_for AS "remindedFor", pending_plan AS "pendingPlan",
  pending_interval AS "pendingInterval", revision, first_checkout_id AS "firstCheckoutId",
  correlation_id AS "correlationId", created_at AS "createdAt", updated_at AS "updatedAt", test_mode AS "testMode"`;

const FIELD_COLUMNS: Record<string, string> = {
  status: 'status',
  cancelAtPeriodEnd: 'cancel_at_period_end',
  currentPeriodStart: 'current_period_start',
  currentPeriodEnd: 'current_period_end',
  graceUntil: 'grace_until',
  endedAt: 'ended_at',
  endedReason: 'ended_reason',
  providerSubscriptionId: 'provider_subscription_id',
  renewalAttempts: 'renewal_attempts',
  nextAttemptAt: 'next_attempt_at',
  remindedFor: 'reminded_for',
  pendingPlan: 'pending_plan',
  pendingInterval: 'pending_interval',
  plan: 'plan',
  amountMinor: 'amount_minor',
  billingInterval: 'billing_interval',
};

export type NewSubscription = Omit<
  Subscription,
  | 'revision'
  | 'graceUntil'
  | 'endedAt'
  | 'endedReason'
  | 'renewalAttempts'
  | 'nextAttemptAt'
  | 'remindedFor'
  | 'pendingPlan'
  | 'pendingInterval'
  | 'cancelAtPeriodEnd'
  | 'status'
  | 'updatedAt'
>;

export async function insertSubscription(
  db: Queryable,
  sub: NewSubscription,
): Promise<Subscription> {
  const { rows } = await db.query<Subscription>(
    `INSERT INTO subscriptions (id, kind, provider, product_id, seller_id, user_id, plan, title, file_id, file_name,
       buyer_email, browser_key_hash, billing_interval, amount_minor, currency, status, current_period_start,
       current_period_end, provider_plan_id, provider_subscription_id, first_checkout_id, correlation_id,
       created_at, updated_at, test_mode)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'active', $16, $17, $18, $19, $20,
       $21, $22, $22, $23)
     RETURNING ${COLUMNS}`,
    [
      sub.id,
      sub.kind,
      sub.provider,
      sub.productId,
      sub.sellerId,
      sub.userId,
      sub.plan,
      sub.title,
      sub.fileId,
      sub.fileName,
      sub.buyerEmail,
      sub.browserKeyHash,
      sub.billingInterval,
      sub.amountMinor,
      sub.currency,
      sub.currentPeriodStart,
      sub.currentPeriodEnd,
      sub.providerPlanId,
      sub.providerSubscriptionId,
      sub.firstCheckoutId,
      sub.correlationId,
      sub.createdAt,
      sub.testMode,
    ],
  );
  return rows[0]!;
}

export type SubscriptionChanges = Partial<
  Pick<
    Subscription,
    | 'status'
    | 'cancelAtPeriodEnd'
    | 'currentPeriodStart'
    | 'currentPeriodEnd'
    | 'graceUntil'
    | 'endedAt'
    | 'endedReason'
    | 'providerSubscriptionId'
    | 'renewalAttempts'
    | 'nextAttemptAt'
    | 'remindedFor'
    | 'pendingPlan'
    | 'pendingInterval'
    | 'plan'
    | 'amountMinor'
    | 'billingInterval'
  >
>;

/**
 * Applies `changes` and bumps the revision (consumers keep the snapshot with the highest one).
 * Call under the row lock taken by `findSubscription(…, { forUpdate: true })`.
 */
export async function updateSubscription(
  db: Queryable,
  id: string,
  changes: SubscriptionChanges,
  now: Date,
): Promise<Subscription> {
  const sets: string[] = [];
  const values: unknown[] = [id, now];
  for (const [field, value] of Object.entries(changes)) {
    const column = FIELD_COLUMNS[field];
    if (!column || value === undefined) continue;
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  const { rows } = await db.query<Subscription>(
    `UPDATE subscriptions SET ${[...sets, 'revision = revision + 1', 'updated_at = $2'].join(', ')}
     WHERE id = $1 RETURNING ${COLUMNS}`,
    values,
  );
  return rows[0]!;
}

/** Bookkeeping that no consumer needs to hear about (retry schedule, reminder sent): no revision. */
export async function noteSubscription(
  db: Queryable,
  id: string,
  changes: Pick<SubscriptionChanges, 'nextAttemptAt' | 'remindedFor' | 'renewalAttempts'>,
): Promise<void> {
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    values.push(value);
    sets.push(`${FIELD_COLUMNS[field]} = $${values.length}`);
  }
  if (sets.length > 0)
    await db.query(`UPDATE subscriptions SET ${sets.join(', ')} WHERE id = $1`, values);
}

export async function findSubscription(
  db: Queryable,
  id: string,
  { forUpdate = false } = {},
): Promise<Subscription | null> {
  const { rows } = await db.query<Subscription>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findSubscriptionByFirstCheckout(
  db: Queryable,
  checkoutId: string,
): Promise<Subscription | null> {
  const { rows } = await db.query<Subscription>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE first_checkout_id = $1`,
    [checkoutId],
  );
  return rows[0] ?? null;
}

/**
 * Every subscription recorded under this provider plan, whatever its state or buyer: the caller
 * decides whether they name exactly one (a plan is made per subscription; older ones shared it).
 */
export async function findSubscriptionsByProviderPlan(
  db: Queryable,
  provider: string,
  providerPlanId: string,
): Promise<Subscription[]> {
  const { rows } = await db.query<Subscription>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE provider = $1 AND provider_plan_id = $2
     ORDER BY created_at`,
    [provider, providerPlanId],
  );
  return rows;
}

/** A provider charge no single subscription can claim, parked for an operator (once per charge). */
export async function parkUnmatchedRenewal(
  db: Queryable,
  renewal: {
    provider: string;
    transactionId: string;
    txRef: string;
    providerPlanId: string | null;
    customerEmail: string | null;
    amountMinor: number;
    currency: string;
    candidates: string[];
    reason: string;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO unmatched_renewals (provider, transaction_id, tx_ref, provider_plan_id, customer_email,
       amount_minor, currency, candidates, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (provider, transaction_id) DO NOTHING`,
    [
      renewal.provider,
      renewal.transactionId,
      renewal.txRef,
      renewal.providerPlanId,
      renewal.customerEmail,
      renewal.amountMinor,
      renewal.currency,
      renewal.candidates,
      renewal.reason,
    ],
  );
}

export async function countOpenUnmatchedRenewals(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ open: number }>(
    'SELECT count(*)::int AS open FROM unmatched_renewals WHERE resolved_at IS NULL',
  );
  return rows[0]?.open ?? 0;
}

/** The seller's live plan subscription (at most one), if any. */
export async function findLivePlanSubscription(
  db: Queryable,
  userId: string,
  { forUpdate = false } = {},
): Promise<Subscription | null> {
  const { rows } = await db.query<Subscription>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE kind = 'plan' AND user_id = $1 AND status <> 'expired'
     ${forUpdate ? 'FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0] ?? null;
}

/**
 * One page of the product subscriptions a seller sold, of one mode, newest first (keyset, the
 * public API's list). Null when the cursor names none of them.
 */
export function listSoldSubscriptionsPage(
  db: Queryable,
  seller: { sellerId: string; testMode: boolean },
  filter: {
    productId?: string;
    status?: SubscriptionStatus;
    createdFrom?: string;
    createdBefore?: string;
  },
  page: { startingAfter?: string; limit: number },
): Promise<{ data: Subscription[]; has_more: boolean } | null> {
  return keysetPage<Subscription>(db, {
    table: 'subscriptions',
    columns: COLUMNS,
    orderBy: 'created_at',
    scope: { seller_id: seller.sellerId, test_mode: seller.testMode },
    always: `kind = 'product'`,
    filters: [
      ['product_id', '=', filter.productId],
      ['status', '=', filter.status],
      ['created_at', '>=', filter.createdFrom],
      ['created_at', '<', filter.createdBefore],
    ],
    ...page,
  });
}

/** A buyer's product subscriptions (by e-mail), live ones first, then newest. */
export async function listBuyerSubscriptions(
  db: Queryable,
  buyerEmail: string,
): Promise<Subscription[]> {
  const { rows } = await db.query<Subscription>(
    `SELECT ${COLUMNS} FROM subscriptions WHERE kind = 'product' AND lower(buyer_email) = lower($1)
     ORDER BY (status = 'expired'), created_at DESC LIMIT 200`,
    [buyerEmail],
  );
  return rows;
}

/**
 * Subscriptions the clock has something to do for at `now`: a period ended (renew, or end a
 * cancelled one), a grace period ran out, or a yearly renewal is 7 days away (reminder).
 */
export async function listSubscriptionsDue(
  db: Queryable,
  now: Date,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM subscriptions
     WHERE status <> 'expired' AND (
       (current_period_end <= $1 AND (next_attempt_at IS NULL OR next_attempt_at <= $1))
       OR (status = 'past_due' AND grace_until <= $1)
       OR (billing_interval = 'yearly' AND NOT cancel_at_period_end
           AND current_period_end <= $1::timestamptz + interval '7 days'
           AND reminded_for IS DISTINCT FROM current_period_end))
     ORDER BY current_period_end LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}

export interface SubscriptionCharge {
  id: string;
  subscriptionId: string;
  provider: string;
  providerTransactionId: string;
  txRef: string;
  periodStart: Date;
  periodEnd: Date;
  amountMinor: number;
  currency: string;
  processorFeeMinor: number;
  purchaseId: string | null;
  refundedMinor: number;
  createdAt: Date;
}

const CHARGE_COLUMNS = `id, subscription_id AS "subscriptionId", provider,
  provider_transaction_id AS "providerTransactionId", tx_ref AS "txRef", period_start AS "periodStart",
  period_end AS "periodEnd", amount_minor AS "amountMinor", currency,
  processor_fee_minor AS "processorFeeMinor", purchase_id AS "purchaseId", refunded_minor AS "refundedMinor",
  created_at AS "createdAt"`;

export async function insertCharge(
  db: Queryable,
  charge: Omit<SubscriptionCharge, 'refundedMinor'>,
): Promise<void> {
  await db.query(
    `INSERT INTO subscription_charges (id, subscription_id, provider, provider_transaction_id, tx_ref, period_start,
       period_end, amount_minor, currency, processor_fee_minor, purchase_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      charge.id,
      charge.subscriptionId,
      charge.provider,
      charge.providerTransactionId,
      charge.txRef,
      charge.periodStart,
      charge.periodEnd,
      charge.amountMinor,
      charge.currency,
      charge.processorFeeMinor,
      charge.purchaseId,
      charge.createdAt,
    ],
  );
}

export async function findChargeForPeriod(
  db: Queryable,
  subscriptionId: string,
  periodStart: Date,
): Promise<SubscriptionCharge | null> {
  const { rows } = await db.query<SubscriptionCharge>(
    `SELECT ${CHARGE_COLUMNS} FROM subscription_charges WHERE subscription_id = $1 AND period_start = $2`,
    [subscriptionId, periodStart],
  );
  return rows[0] ?? null;
}

/** The charge that paid the current period (the one a pro-rata refund gives back part of). */
export async function latestCharge(
  db: Queryable,
  subscriptionId: string,
): Promise<SubscriptionCharge | null> {
  const { rows } = await db.query<SubscriptionCharge>(
    `SELECT ${CHARGE_COLUMNS} FROM subscription_charges WHERE subscription_id = $1
     ORDER BY period_start DESC LIMIT 1`,
    [subscriptionId],
  );
  return rows[0] ?? null;
}

export async function addChargeRefund(
  db: Queryable,
  chargeId: string,
  amountMinor: number,
): Promise<void> {
  await db.query(
    'UPDATE subscription_charges SET refunded_minor = refunded_minor + $2 WHERE id = $1',
    [chargeId, amountMinor],
  );
}

export interface SubscriberFigures {
  currency: string;
  activeSubscribers: number;
  /** Yearly prices count as a twelfth per month. */
  monthlyRecurringMinor: number;
}

/** A seller's live subscribers and monthly recurring revenue, per currency (not cancelled, not expired). */
export async function sellerSubscriberFigures(
  db: Queryable,
  sellerId: string,
): Promise<SubscriberFigures[]> {
  const { rows } = await db.query<SubscriberFigures>(
    `SELECT currency, count(*)::int AS "activeSubscribers",
            round(sum(CASE billing_interval WHEN 'yearly' THEN amount_minor / 12.0 ELSE amount_minor END))::bigint
              AS "monthlyRecurringMinor"
     FROM subscriptions
     WHERE kind = 'product' AND seller_id = $1 AND status <> 'expired' AND NOT cancel_at_period_end
     GROUP BY currency ORDER BY currency`,
    [sellerId],
  );
  return rows.map((row) => ({ ...row, monthlyRecurringMinor: Number(row.monthlyRecurringMinor) }));
}

import type { Queryable } from '@lockdrop/db';
import type { BillingInterval } from '@lockdrop/contracts';

/** `awaiting_email`: a free claim waiting for its address to confirm (issue 30). */
export type CheckoutStatus =
  'creating' | 'open' | 'failed' | 'paid' | 'not_started' | 'awaiting_email';

export type { BillingInterval };

export type CheckoutKind = 'product' | 'plan';

/** What every checkout records, whatever it sells. */
interface CheckoutRecord {
  id: string;
  txRef: string;
  provider: string;
  status: CheckoutStatus;
  /** Set for a recurring price: paying starts (or continues) a subscription. */
  billingInterval: BillingInterval | null;
  /** Set when the checkout pays a period of this existing subscription, starting at `renewsPeriodStart`. */
  subscriptionId: string | null;
  renewsPeriodStart: Date | null;
  productTitle: string;
  buyerEmail: string;
  priceMinor: number;
  priceCurrency: string;
  amountMinor: number;
  currency: string;
  fxRate: string | null;
  plan: string;
  platformFeeBps: number;
  platformFeeMinor: number;
  link: string | null;
  browserKeyHash: string | null;
  correlationId: string;
  createdAt: Date;
  /** When the payment page stops taking payment (set for checkouts holding a code's use). */
  expiresAt: Date | null;
  /**
   * The seller's custom domain the buyer checked out on (`https://shop.example.com`, issue 28),
   * or null (Lockdrop's own host): the receipt's links go there while the domain serves.
   */
  storeOrigin: string | null;
}

/** A buyer's checkout of a seller's product, bought once or subscribed to. */
export interface ProductCheckout extends CheckoutRecord {
  kind: 'product';
  productId: string;
  sellerId: string;
  fileId: string | null;
  fileName: string | null;
  /** The seller's code the buyer used, as typed then, and what it took off (in `currency`). */
  discountCodeId: string | null;
  discountCode: string | null;
  discountMinor: number;
  userId: null;
  planBought: null;
}

/** A signed-in seller's checkout of a Lockdrop plan (always recurring). */
export interface PlanCheckout extends CheckoutRecord {
  kind: 'plan';
  /** The seller buying it, and the plan bought. */
  userId: string;
  planBought: string;
  billingInterval: BillingInterval;
  productId: null;
  sellerId: null;
  fileId: null;
  fileName: null;
  discountCodeId: null;
  discountCode: null;
  discountMinor: number;
}

export type Checkout = ProductCheckout | PlanCheckout;

/** A checkout about to be recorded: its payment link comes later. */
export type NewCheckout = Omit<ProductCheckout, 'link'> | Omit<PlanCheckout, 'link'>;

const COLUMNS = `id, tx_ref AS "txRef", provider, status, product_id AS "productId", seller_id AS "sellerId",
  product_title AS "productTitle", file_id AS "fileId", file_name AS "fileName", buyer_email AS "buyerEmail",
  price_minor AS "priceMinor", price_currency AS "priceCurrency", amount_minor AS "amountMinor", currency,
  fx_rate AS "fxRate", plan, platform_fee_bps AS "platformFeeBps", platform_fee_minor AS "platformFeeMinor", link,
  browser_key_hash AS "browserKeyHash", correlation_id AS "correlationId", created_at AS "createdAt",
  kind, billing_interval AS "billingInterval", user_id AS "userId", plan_bought AS "planBought",
  subscription_id AS "subscriptionId", renews_period_start AS "renewsPeriodStart",
  discount_code_id AS "discountCodeId", discount_code AS "discountCode", discount_minor AS "discountMinor",
  expires_at AS "expiresAt", store_origin AS "storeOrigin"`;

export async function insertCheckout(db: Queryable, checkout: NewCheckout): Promise<void> {
  await db.query(
    `INSERT INTO checkouts (id, tx_ref, provider, status, product_id, seller_id, product_title, file_id, file_name,
       buyer_email, price_minor, price_currency, amount_minor, currency, fx_rate, plan, platform_fee_bps,
       platform_fee_minor, browser_key_hash, correlation_id, created_at, kind, billing_interval, user_id,
       plan_bought, subscription_id, renews_period_start, discount_code_id, discount_code, discount_minor,
       expires_at, store_origin)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
       $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32)`,
    [
      checkout.id,
      checkout.txRef,
      checkout.provider,
      checkout.status,
      checkout.productId,
      checkout.sellerId,
      checkout.productTitle,
      checkout.fileId,
      checkout.fileName,
      checkout.buyerEmail,
      checkout.priceMinor,
      checkout.priceCurrency,
      checkout.amountMinor,
      checkout.currency,
      checkout.fxRate,
      checkout.plan,
      checkout.platformFeeBps,
      checkout.platformFeeMinor,
      checkout.browserKeyHash,
      checkout.correlationId,
      checkout.createdAt,
      checkout.kind,
      checkout.billingInterval,
      checkout.userId,
      checkout.planBought,
      checkout.subscriptionId,
      checkout.renewsPeriodStart,
      checkout.discountCodeId,
      checkout.discountCode,
      checkout.discountMinor,
      checkout.expiresAt,
      checkout.storeOrigin,
    ],
  );
}

/**
 * This buyer's checkout of the same product with the same code and currency whose payment page
 * still takes payment: starting it again hands that page back rather than holding a second use
 * of the code (or being refused by a per-buyer limit the open checkout itself holds).
 */
export async function findOpenDiscountCheckout(
  db: Queryable,
  match: { discountCode: string; productId: string; buyerEmail: string; currency: string },
  now: Date,
): Promise<Checkout | null> {
  const { rows } = await db.query<Checkout>(
    `SELECT ${COLUMNS} FROM checkouts
     WHERE upper(discount_code) = upper($1) AND product_id = $2 AND lower(buyer_email) = lower($3)
       AND currency = $4 AND status = 'open' AND link IS NOT NULL
       AND expires_at > $5::timestamptz + interval '5 minutes'
     ORDER BY created_at DESC LIMIT 1`,
    [match.discountCode.trim(), match.productId, match.buyerEmail, match.currency, now],
  );
  return rows[0] ?? null;
}

export async function findCheckoutByTxRef(
  db: Queryable,
  txRef: string,
  options: { forUpdate?: boolean } = {},
): Promise<Checkout | null> {
  const { rows } = await db.query<Checkout>(
    `SELECT ${COLUMNS} FROM checkouts WHERE tx_ref = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [txRef],
  );
  return rows[0] ?? null;
}

/**
 * The checkout a verified payment settles, locked, with the provider transaction that already
 * paid it (its purchase's, or its subscription charge's). Two statements, not one: a single
 * `SELECT … FOR UPDATE` with the lookup as a subquery would read purchases in the snapshot
 * taken before it waited for the lock, and miss the purchase the lock's holder just committed
 * (READ COMMITTED): the concurrent-deliveries test caught exactly that.
 */
export async function lockCheckoutToSettle(
  db: Queryable,
  txRef: string,
): Promise<{ checkout: Checkout; settledTransactionId: string | null } | null> {
  const checkout = await findCheckoutByTxRef(db, txRef, { forUpdate: true });
  if (!checkout) return null;
  const { rows } = await db.query<{ settledTransactionId: string | null }>(
    `SELECT COALESCE(
       (SELECT provider_transaction_id FROM purchases WHERE checkout_id = $1),
       (SELECT provider_transaction_id FROM subscription_charges WHERE tx_ref = $2 LIMIT 1)
     ) AS "settledTransactionId"`,
    [checkout.id, checkout.txRef],
  );
  return { checkout, settledTransactionId: rows[0]!.settledTransactionId };
}

/** `setCheckoutStatus` for many checkouts in one statement. */
export async function setCheckoutsStatus(
  db: Queryable,
  ids: string[],
  status: CheckoutStatus,
  from: CheckoutStatus[],
): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    'UPDATE checkouts SET status = $2 WHERE id = ANY($1::uuid[]) AND status = ANY($3)',
    [ids, status, from],
  );
}

/**
 * `lockCheckoutToSettle` for a batch: every checkout of `txRefs` locked in one statement, in id
 * order (two settlers locking overlapping batches queue rather than deadlock), then what already
 * paid each, read after the locks were granted (see above).
 */
export async function lockCheckoutsToSettle(
  db: Queryable,
  txRefs: string[],
): Promise<Map<string, { checkout: Checkout; settledTransactionId: string | null }>> {
  const locked = new Map<string, { checkout: Checkout; settledTransactionId: string | null }>();
  if (txRefs.length === 0) return locked;
  const { rows } = await db.query<Checkout>(
    `SELECT ${COLUMNS} FROM checkouts WHERE tx_ref = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [[...new Set(txRefs)]],
  );
  if (rows.length === 0) return locked;
  const settled = await db.query<{ id: string; settledTransactionId: string | null }>(
    `SELECT c.id, COALESCE(
       (SELECT provider_transaction_id FROM purchases p WHERE p.checkout_id = c.id),
       (SELECT provider_transaction_id FROM subscription_charges s WHERE s.tx_ref = c.tx_ref LIMIT 1)
     ) AS "settledTransactionId"
     FROM checkouts c WHERE c.id = ANY($1::uuid[])`,
    [rows.map((row) => row.id)],
  );
  const settledById = new Map(settled.rows.map((row) => [row.id, row.settledTransactionId]));
  for (const checkout of rows)
    locked.set(checkout.txRef, {
      checkout,
      settledTransactionId: settledById.get(checkout.id) ?? null,
    });
  return locked;
}

/** Moves a checkout to `status`, but only from one of `from` (a paid checkout never goes back). */
export async function setCheckoutStatus(
  db: Queryable,
  id: string,
  status: CheckoutStatus,
  from: CheckoutStatus[],
  link?: string,
): Promise<void> {
  await db.query(
    'UPDATE checkouts SET status = $2, link = COALESCE($4, link) WHERE id = $1 AND status = ANY($3)',
    [id, status, from, link ?? null],
  );
}

/** Checkouts this e-mail started since `since`, counted under a per-e-mail lock so racing requests queue. */
export async function countRecentCheckouts(
  db: Queryable,
  buyerEmail: string,
  since: Date,
): Promise<number> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
    `checkout-email:${buyerEmail.toLowerCase()}`,
  ]);
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM checkouts WHERE lower(buyer_email) = lower($1) AND created_at >= $2',
    [buyerEmail, since],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Claims the right to ask the provider about this checkout now: true at most once per
 * `intervalSeconds`, so page polls and replicas do not hammer the provider.
 */
export async function claimVerification(
  db: Queryable,
  id: string,
  now: Date,
  intervalSeconds: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE checkouts SET last_verified_at = $2
     WHERE id = $1 AND (last_verified_at IS NULL OR last_verified_at <= $2::timestamptz - make_interval(secs => $3::int))`,
    [id, now, intervalSeconds],
  );
  return rowCount === 1;
}

/**
 * Unconfirmed checkouts worth polling: old enough that a webhook should have come, young enough
 * to still pay (a hosted session lasts at most 24 h). Each is asked again after a quarter of its
 * age (at least 2 minutes), so abandoned checkouts cost a handful of calls, not hundreds.
 */
export async function dueUnconfirmedCheckouts(
  db: Queryable,
  now: Date,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ tx_ref: string }>(
    `SELECT tx_ref FROM checkouts
     WHERE status IN ('open', 'failed') AND created_at BETWEEN $1::timestamptz - interval '24 hours' AND $1::timestamptz - interval '1 minute'
       AND (last_verified_at IS NULL
            OR last_verified_at <= $1::timestamptz - GREATEST(interval '2 minutes', ($1::timestamptz - created_at) / 4))
     ORDER BY created_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => row.tx_ref);
}

/** A renewal checkout for this period already opened (a tick that crashed before it charged). */
export async function findOpenRenewalCheckout(
  db: Queryable,
  subscriptionId: string,
  periodStart: Date,
): Promise<Checkout | null> {
  const { rows } = await db.query<Checkout>(
    `SELECT ${COLUMNS} FROM checkouts
     WHERE subscription_id = $1 AND renews_period_start = $2 AND status IN ('creating', 'open')
     ORDER BY created_at DESC LIMIT 1`,
    [subscriptionId, periodStart],
  );
  return rows[0] ?? null;
}

import type { CommandRequest, EventData } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

/** A buyer's right to one purchase's file, as payments' events described it. */
export interface Entitlement {
  purchaseId: string;
  productId: string;
  /** The file snapshotted at checkout, else the product's current file; null when neither is known. */
  fileId: string | null;
  fileName: string | null;
  productTitle: string | null;
  /** Lower-cased. */
  buyerEmail: string;
  buyerBrowserKeyHash: string | null;
  /** Null while only the refund has arrived. */
  paidAt: Date | null;
  revokedAt: Date | null;
  /**
   * The refund attempt that suspended downloads while the provider refunds — this purchase's,
   * or for a charge of a subscription, any of its charges' (they share one access); null otherwise.
   */
  refundHold: string | null;
  /** Set when the purchase is a charge of a product subscription. */
  subscriptionId: string | null;
  /** Until when that subscription grants access; null while no snapshot of it has arrived. */
  accessUntil: Date | null;
}

/**
 * A hold on any charge of the subscription holds them all: payments ends a subscription whose
 * charge is refunded, so while one refund is under way the other charges must not open the file
 * either. The hold stays on the charge once refunded (the subscription has ended by then); a
 * failed refund lifts it, and with it the whole subscription's.
 */
const SUBSCRIPTION_HOLD = `(SELECT h.refund_hold FROM entitlements h
  WHERE h.subscription_id = e.subscription_id AND h.refund_hold IS NOT NULL LIMIT 1)`;
const COLUMNS = `e.purchase_id AS "purchaseId", e.product_id AS "productId",
  COALESCE(e.file_id, p.file_id) AS "fileId", e.file_name AS "fileName", e.product_title AS "productTitle",
  e.buyer_email AS "buyerEmail", e.buyer_browser_key_hash AS "buyerBrowserKeyHash",
  e.paid_at AS "paidAt", e.revoked_at AS "revokedAt",
  COALESCE(e.refund_hold, ${SUBSCRIPTION_HOLD}) AS "refundHold",
  e.subscription_id AS "subscriptionId", sa.access_until AS "accessUntil"`;
const FROM = `entitlements e LEFT JOIN products p ON p.product_id = e.product_id AND NOT p.deleted
  LEFT JOIN subscription_access sa ON sa.subscription_id = e.subscription_id`;
/** SQL twin of `isUsable` (domain/entitlements.ts), at the time `now` (an SQL expression). */
const usableAt = (now: string) =>
  `e.paid_at IS NOT NULL AND e.revoked_at IS NULL AND e.refund_hold IS NULL
   AND (e.subscription_id IS NULL OR (sa.access_until > ${now} AND ${SUBSCRIPTION_HOLD} IS NULL))`;

type PaidPurchase = EventData<'purchase.paid'>;
type SubscriptionSnapshot = {
  subscriptionId: string;
  status: string;
  accessUntil: string;
  revision: number;
};

/**
 * Two events about one purchase in one batch become one row (ON CONFLICT cannot touch a row
 * twice in a statement), keeping the first word on each column as two statements would.
 */
function onePerPurchase(purchases: PaidPurchase[]): PaidPurchase[] {
  const merged = new Map<string, PaidPurchase>();
  for (const purchase of purchases) {
    const earlier = merged.get(purchase.purchaseId);
    merged.set(
      purchase.purchaseId,
      earlier
        ? {
            ...earlier,
            fileId: earlier.fileId ?? purchase.fileId,
            fileName: earlier.fileName ?? purchase.fileName,
            productTitle: earlier.productTitle ?? purchase.productTitle,
            buyerBrowserKeyHash: earlier.buyerBrowserKeyHash ?? purchase.buyerBrowserKeyHash,
            receiptTokenHash: earlier.receiptTokenHash ?? purchase.receiptTokenHash,
            subscription: earlier.subscription ?? purchase.subscription,
          }
        : purchase,
    );
  }
  // One lock order for every batch, so two replicas' batches cannot deadlock on the same rows.
  return [...merged.values()].sort((a, b) => a.purchaseId.localeCompare(b.purchaseId));
}

/**
 * Records paid purchases, many in one statement. A duplicate (same purchase, any event id)
 * changes nothing it already knows, and a refund that arrived first stays in force: revoked_at
 * is never cleared here.
 */
export async function grantEntitlements(db: Queryable, paid: PaidPurchase[]): Promise<void> {
  const purchases = onePerPurchase(paid);
  const column = <T>(pick: (purchase: PaidPurchase) => T): T[] => purchases.map(pick);
  await db.query(
    `INSERT INTO entitlements AS e (purchase_id, product_id, seller_id, file_id, file_name, product_title, buyer_email,
       buyer_browser_key_hash, receipt_token_hash, paid_at, subscription_id)
     SELECT purchase_id, product_id, seller_id, file_id, file_name, product_title, lower(buyer_email),
       buyer_browser_key_hash, receipt_token_hash, paid_at, subscription_id
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::timestamptz[], $11::uuid[])
       AS p (purchase_id, product_id, seller_id, file_id, file_name, product_title, buyer_email,
         buyer_browser_key_hash, receipt_token_hash, paid_at, subscription_id)
     ON CONFLICT (purchase_id) DO UPDATE SET
       paid_at = COALESCE(e.paid_at, excluded.paid_at),
       subscription_id = COALESCE(e.subscription_id, excluded.subscription_id),
       file_id = COALESCE(e.file_id, excluded.file_id),
       file_name = COALESCE(e.file_name, excluded.file_name),
       product_title = COALESCE(e.product_title, excluded.product_title),
       buyer_browser_key_hash = COALESCE(e.buyer_browser_key_hash, excluded.buyer_browser_key_hash),
       receipt_token_hash = COALESCE(e.receipt_token_hash, excluded.receipt_token_hash)`,
    [
      column((p) => p.purchaseId),
      column((p) => p.productId),
      column((p) => p.sellerId),
      column((p) => p.fileId),
      column((p) => p.fileName),
      column((p) => p.productTitle),
      column((p) => p.buyerEmail.trim()),
      column((p) => p.buyerBrowserKeyHash),
      column((p) => p.receiptTokenHash),
      column((p) => p.paidAt),
      column((p) => p.subscription?.subscriptionId ?? null),
    ],
  );
  const snapshots = purchases.flatMap((purchase) =>
    purchase.subscription ? [purchase.subscription] : [],
  );
  if (snapshots.length > 0) await applySubscriptionAccess(db, snapshots);
}

/**
 * Keeps the newest word on a subscription's access (highest revision wins; an older snapshot
 * arriving late changes nothing), from `purchase.paid` and every `subscription.*` event.
 */
export async function applySubscriptionAccess(
  db: Queryable,
  snapshots: SubscriptionSnapshot[],
): Promise<void> {
  const newest = new Map<string, SubscriptionSnapshot>();
  for (const snapshot of snapshots) {
    const known = newest.get(snapshot.subscriptionId);
    if (!known || known.revision < snapshot.revision) newest.set(snapshot.subscriptionId, snapshot);
  }
  const rows = [...newest.values()].sort((a, b) =>
    a.subscriptionId.localeCompare(b.subscriptionId),
  );
  await db.query(
    `INSERT INTO subscription_access AS sa (subscription_id, status, access_until, revision)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[])
     ON CONFLICT (subscription_id) DO UPDATE SET
       status = excluded.status, access_until = excluded.access_until, revision = excluded.revision
     WHERE sa.revision < excluded.revision`,
    [
      rows.map((row) => row.subscriptionId),
      rows.map((row) => row.status),
      rows.map((row) => row.accessUntil),
      rows.map((row) => row.revision),
    ],
  );
}

/** Revokes at once; when the payment has not reached us yet, leaves a revoked row for it to land on. */
export async function revokeEntitlement(
  db: Queryable,
  refund: EventData<'purchase.refunded'>,
): Promise<void> {
  await db.query(
    `INSERT INTO entitlements AS e (purchase_id, product_id, seller_id, file_id, buyer_email, revoked_at)
     VALUES ($1, $2, $3, $4, lower($5), $6)
     ON CONFLICT (purchase_id) DO UPDATE SET revoked_at = CASE
       WHEN e.reinstated_at >= excluded.revoked_at THEN e.revoked_at
       ELSE COALESCE(e.revoked_at, excluded.revoked_at) END`,
    [
      refund.purchaseId,
      refund.productId,
      refund.sellerId,
      refund.fileId ?? null,
      refund.buyerEmail.trim(),
      refund.refundedAt,
    ],
  );
}

/**
 * Gives access back after a chargeback the seller won: the revocation it undoes is any made at
 * or before `reinstatedAt`; one recorded later (a new refund) stands. Arriving first, it leaves
 * a row the late chargeback then finds already answered.
 */
export async function reinstateEntitlement(
  db: Queryable,
  reinstated: EventData<'purchase.reinstated'>,
): Promise<void> {
  await db.query(
    `INSERT INTO entitlements AS e (purchase_id, product_id, seller_id, file_id, buyer_email, reinstated_at)
     VALUES ($1, $2, $3, $4, lower($5), $6)
     ON CONFLICT (purchase_id) DO UPDATE SET
       reinstated_at = GREATEST(e.reinstated_at, excluded.reinstated_at),
       revoked_at = CASE WHEN e.revoked_at <= excluded.reinstated_at THEN NULL ELSE e.revoked_at END`,
    [
      reinstated.purchaseId,
      reinstated.productId,
      reinstated.sellerId,
      reinstated.fileId ?? null,
      reinstated.buyerEmail.trim(),
      reinstated.reinstatedAt,
    ],
  );
}

/**
 * Stops downloads for a refund attempt at once, before any money moves; when the payment has not
 * reached us yet, leaves a held row for it to land on (like a refund that arrives first).
 */
export async function holdForRefund(
  db: Queryable,
  hold: CommandRequest<'access.suspend_for_refund'>,
): Promise<void> {
  await db.query(
    `INSERT INTO entitlements AS e (purchase_id, product_id, seller_id, buyer_email, refund_hold)
     VALUES ($1, $2, $3, lower($4), $5)
     ON CONFLICT (purchase_id) DO UPDATE SET refund_hold = excluded.refund_hold`,
    [hold.purchaseId, hold.productId, hold.sellerId, hold.buyerEmail.trim(), hold.refundId],
  );
}

/** Lifts the hold of a refund attempt that moved no money; a later attempt's hold stays. */
export async function releaseRefundHold(
  db: Queryable,
  failure: EventData<'purchase.refund_failed'>,
): Promise<void> {
  await db.query(
    'UPDATE entitlements SET refund_hold = NULL WHERE purchase_id = $1 AND refund_hold = $2',
    [failure.purchaseId, failure.refundId],
  );
}

export async function findEntitlement(
  db: Queryable,
  purchaseId: string,
  { forUpdate = false } = {},
): Promise<Entitlement | null> {
  const { rows } = await db.query<Entitlement>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE e.purchase_id = $1 ${forUpdate ? 'FOR UPDATE OF e' : ''}`,
    [purchaseId],
  );
  return rows[0] ?? null;
}

/** SQL for `findEntitlement`'s answer as one JSON object (or null), to read along with other rows. */
export const entitlementJson = (purchaseId: string) =>
  `(SELECT row_to_json(x) FROM (SELECT ${COLUMNS} FROM ${FROM} WHERE e.purchase_id = ${purchaseId}) x)`;

type DatesAsText<T> = { [K in keyof T]: T[K] extends Date | null ? string | null : T[K] };

/** The entitlement `entitlementJson` read (JSON has no dates). */
export function entitlementFromJson(json: DatesAsText<Entitlement>): Entitlement {
  const date = (text: string | null) => (text === null ? null : new Date(text));
  return {
    ...json,
    paidAt: date(json.paidAt),
    revokedAt: date(json.revokedAt),
    accessUntil: date(json.accessUntil),
  };
}

export async function findEntitlementByReceiptTokenHash(
  db: Queryable,
  tokenHash: string,
): Promise<Entitlement | null> {
  const { rows } = await db.query<Entitlement>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE e.receipt_token_hash = $1`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/** Who is asking, reduced to what an entitlement can be matched on. */
export interface AccessKeys {
  /** A signed-in user's e-mail, lower-cased, only when verified. */
  verifiedEmail: string | null;
  browserKeyHash: string | null;
  receiptKeyHash: string | null;
}

/** The newest usable entitlement to the product that any of the keys opens. */
export async function findAccessibleEntitlement(
  db: Queryable,
  productId: string,
  keys: AccessKeys,
  now: Date,
): Promise<Entitlement | null> {
  const { rows } = await db.query<Entitlement>(
    `SELECT ${COLUMNS} FROM ${FROM}
     WHERE e.product_id = $1 AND ${usableAt('$5')}
       AND (e.buyer_email = $2 OR e.buyer_browser_key_hash = $3
         OR EXISTS (SELECT 1 FROM receipt_sessions s WHERE s.key_hash = $4 AND s.purchase_id = e.purchase_id AND s.expires_at > $5))
     ORDER BY e.paid_at DESC LIMIT 1`,
    [productId, keys.verifiedEmail, keys.browserKeyHash, keys.receiptKeyHash, now],
  );
  return rows[0] ?? null;
}

/**
 * True while a buyer who has not been refunded (or whose subscription lasts) may still download
 * the file: the one they bought at checkout, or one of their product's files — a deleted
 * product's too (`findPurchaseFiles` is the rule this mirrors).
 */
export async function isFileEntitled(db: Queryable, fileId: string): Promise<boolean> {
  const subscriptions =
    'LEFT JOIN subscription_access sa ON sa.subscription_id = e.subscription_id';
  const { rows } = await db.query<{ entitled: boolean }>(
    `SELECT EXISTS (
         SELECT 1 FROM entitlements e ${subscriptions}
         WHERE e.file_id = $1 AND ${usableAt('now()')})
       OR EXISTS (
         SELECT 1 FROM products p JOIN entitlements e ON e.product_id = p.product_id ${subscriptions}
         WHERE p.file_ids @> ARRAY[$1::uuid] AND ${usableAt('now()')}) AS entitled`,
    [fileId],
  );
  return rows[0]!.entitled;
}

import type { Queryable } from '@lockdrop/db';
import { keysetPage } from '../../db/keyset.js';

export type PurchaseStatus = 'paid' | 'refunding' | 'refunded';

export interface Purchase {
  id: string;
  checkoutId: string;
  txRef: string;
  productId: string;
  sellerId: string;
  buyerEmail: string;
  productTitle: string;
  fileId: string | null;
  fileName: string | null;
  amountMinor: number;
  currency: string;
  feePlatformMinor: number;
  feeProcessorMinor: number;
  sellerEarningsMinor: number;
  provider: string;
  providerTransactionId: string;
  /** Paid through the sandbox or a provider's test keys: no real money moved. */
  testMode: boolean;
  /** Set when this purchase is one charge (first or renewal) of a product subscription. */
  subscriptionId: string | null;
  /** A later charge of the subscription, not its first payment. */
  renewal: boolean;
  status: PurchaseStatus;
  paidAt: Date;
  refundedAt: Date | null;
  receiptTokenHash: string;
  /** When the seller's earnings moved from pending to available (refund window + hold passed). */
  earningsReleasedAt: Date | null;
  /** The discount code the checkout used, and what it took off (in `currency`). */
  discountCode: string | null;
  discountMinor: number;
  /** When the row last changed (kept by a trigger, migration 0070): the v1 resource's `updated_at`. */
  updatedAt: Date;
}

const COLUMNS = `id, checkout_id AS "checkoutId", tx_ref AS "txRef", product_id AS "productId", seller_id AS "sellerId",
  buyer_email AS "buyerEmail", product_title AS "productTitle", file_id AS "fileId", file_name AS "fileName",
  amount_minor AS "amountMinor", currency, fee_platform_minor AS "feePlatformMinor",
  fee_processor_minor AS "feeProcessorMinor", seller_earnings_minor AS "sellerEarningsMinor", provider,
  provider_transaction_id AS "providerTransactionId", status, paid_at AS "paidAt", refunded_at AS "refundedAt",
  receipt_token_hash AS "receiptTokenHash", test_mode AS "testMode",
  earnings_released_at AS "earningsReleasedAt", subscription_id AS "subscriptionId", renewal,
  discount_code AS "discountCode", discount_minor AS "discountMinor", updated_at AS "updatedAt"`;

export type NewPurchase = Omit<Purchase, 'refundedAt' | 'earningsReleasedAt' | 'updatedAt'>;

/** Inserts many purchases in one statement (a settlement batch is one round trip, not one per sale). */
export async function insertPurchases(db: Queryable, purchases: NewPurchase[]): Promise<void> {
  if (purchases.length === 0) return;
  const values: unknown[] = [];
  const rows = purchases.map((purchase) => {
    const fields = [
      purchase.id,
      purchase.checkoutId,
      purchase.txRef,
      purchase.productId,
      purchase.sellerId,
      purchase.buyerEmail,
      purchase.productTitle,
      purchase.fileId,
      purchase.fileName,
      purchase.amountMinor,
      purchase.currency,
      purchase.feePlatformMinor,
      purchase.feeProcessorMinor,
      purchase.sellerEarningsMinor,
      purchase.provider,
      purchase.providerTransactionId,
      purchase.status,
      purchase.paidAt,
      purchase.receiptTokenHash,
      purchase.testMode,
      purchase.subscriptionId,
      purchase.renewal,
      purchase.discountCode,
      purchase.discountMinor,
    ];
    const first = values.length + 1;
    values.push(...fields);
    return `(${fields.map((_, index) => `$${first + index}`).join(', ')})`;
  });
  await db.query(
    `INSERT INTO purchases (id, checkout_id, tx_ref, product_id, seller_id, buyer_email, product_title, file_id, file_name,
       amount_minor, currency, fee_platform_minor, fee_processor_minor, seller_earnings_minor, provider,
       provider_transaction_id, status, paid_at, receipt_token_hash, test_mode, subscription_id, renewal,
       discount_code, discount_minor)
     VALUES ${rows.join(', ')}`,
    values,
  );
}

export async function findPurchaseByCheckout(
  db: Queryable,
  checkoutId: string,
): Promise<Purchase | null> {
  const { rows } = await db.query<Purchase>(
    `SELECT ${COLUMNS} FROM purchases WHERE checkout_id = $1`,
    [checkoutId],
  );
  return rows[0] ?? null;
}

export async function findPurchase(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Purchase | null> {
  const { rows } = await db.query<Purchase>(
    `SELECT ${COLUMNS} FROM purchases WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Spec §7 row 6: paid purchases of this buyer e-mail, newest first. */
export async function listPaidPurchases(db: Queryable, buyerEmail: string): Promise<Purchase[]> {
  const { rows } = await db.query<Purchase>(
    // A subscription's charges are one entry: its newest purchase (the others are its history).
    `SELECT * FROM (
       SELECT DISTINCT ON (COALESCE(subscription_id, id)) ${COLUMNS} FROM purchases
       WHERE lower(buyer_email) = lower($1) AND status = 'paid'
       ORDER BY COALESCE(subscription_id, id), paid_at DESC) latest
     ORDER BY "paidAt" DESC, id`,
    [buyerEmail],
  );
  return rows;
}

/** A seller's own sales, newest first (dashboard: revenue, recent sales). */
export async function listSales(
  db: Queryable,
  sellerId: string,
  limit: number,
): Promise<Purchase[]> {
  const { rows } = await db.query<Purchase>(
    `SELECT ${COLUMNS} FROM purchases WHERE seller_id = $1 ORDER BY paid_at DESC, id LIMIT $2`,
    [sellerId, limit],
  );
  return rows;
}

export interface SalesPageFilter {
  productId?: string;
  status?: PurchaseStatus;
  paidFrom?: string;
  paidBefore?: string;
}

/**
 * One page of a seller's sales of one mode, newest first, after the sale `startingAfter` (keyset:
 * `LIMIT limit + 1`, never the whole list). Null when the cursor names none of the seller's sales
 * of that mode.
 */
export function listSellerSalesPage(
  db: Queryable,
  seller: { sellerId: string; testMode: boolean },
  filter: SalesPageFilter,
  page: { startingAfter?: string; limit: number },
): Promise<{ data: Purchase[]; has_more: boolean } | null> {
  return keysetPage<Purchase>(db, {
    table: 'purchases',
    columns: COLUMNS,
    orderBy: 'paid_at',
    scope: { seller_id: seller.sellerId, test_mode: seller.testMode },
    filters: [
      ['product_id', '=', filter.productId],
      ['status', '=', filter.status],
      ['paid_at', '>=', filter.paidFrom],
      ['paid_at', '<', filter.paidBefore],
    ],
    ...page,
  });
}

export async function setPurchaseStatus(
  db: Queryable,
  id: string,
  status: PurchaseStatus,
  refund?: { refundedAt: Date; reference: string; refundedBy: string | null },
): Promise<void> {
  await db.query(
    `UPDATE purchases SET status = $2, refunded_at = COALESCE($3, refunded_at),
       refund_reference = COALESCE($4, refund_reference), refunded_by = COALESCE($5, refunded_by)
     WHERE id = $1`,
    [id, status, refund?.refundedAt ?? null, refund?.reference ?? null, refund?.refundedBy ?? null],
  );
}

export async function findPurchaseByTransaction(
  db: Queryable,
  provider: string,
  providerTransactionId: string,
): Promise<Purchase | null> {
  const { rows } = await db.query<Purchase>(
    `SELECT ${COLUMNS} FROM purchases WHERE provider = $1 AND provider_transaction_id = $2`,
    [provider, providerTransactionId],
  );
  return rows[0] ?? null;
}

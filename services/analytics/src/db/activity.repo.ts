import type { PoolClient } from '@lockdrop/db';

/** Writes of the consumers: raw events and the per-product per-day rollups built from them. */

export type DailyCounter = 'views' | 'checkouts_started' | 'sales' | 'refunds' | 'downloads';

export async function recordRawEvent(
  tx: PoolClient,
  event: { id: string; type: string; occurredAt: string; data: unknown },
  productId: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO raw_events (event_id, type, product_id, occurred_at, data) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (event_id) DO NOTHING`,
    [event.id, event.type, productId, event.occurredAt, JSON.stringify(event.data)],
  );
}

export async function incrementDaily(
  tx: PoolClient,
  productId: string,
  day: string,
  counter: DailyCounter,
): Promise<void> {
  // The column name comes from the DailyCounter union, never from input.
  await tx.query(
    `INSERT INTO product_daily (product_id, day, ${counter}) VALUES ($1, $2, 1)
     ON CONFLICT (product_id, day) DO UPDATE SET ${counter} = product_daily.${counter} + 1`,
    [productId, day],
  );
}

/** Test sales and their refunds, per product, day and currency: shown apart, never as revenue. */
export async function addDailyTestSale(
  tx: PoolClient,
  entry: {
    productId: string;
    day: string;
    currency: string;
    sales: number;
    refunds: number;
    grossMinor: number;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO product_daily_test_sales (product_id, day, currency, sales, refunds, gross_minor)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (product_id, day, currency) DO UPDATE SET
       sales = product_daily_test_sales.sales + excluded.sales,
       refunds = product_daily_test_sales.refunds + excluded.refunds,
       gross_minor = product_daily_test_sales.gross_minor + excluded.gross_minor`,
    [entry.productId, entry.day, entry.currency, entry.sales, entry.refunds, entry.grossMinor],
  );
}

export async function addDailyRevenue(
  tx: PoolClient,
  entry: {
    productId: string;
    day: string;
    currency: string;
    grossMinor: number;
    earningsMinor: number;
    refundedEarningsMinor: number;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO product_daily_revenue (product_id, day, currency, gross_minor, earnings_minor, refunded_earnings_minor)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (product_id, day, currency) DO UPDATE SET
       gross_minor = product_daily_revenue.gross_minor + excluded.gross_minor,
       earnings_minor = product_daily_revenue.earnings_minor + excluded.earnings_minor,
       refunded_earnings_minor = product_daily_revenue.refunded_earnings_minor + excluded.refunded_earnings_minor`,
    [
      entry.productId,
      entry.day,
      entry.currency,
      entry.grossMinor,
      entry.earningsMinor,
      entry.refundedEarningsMinor,
    ],
  );
}

/** True when this visitor had not been counted for the product on that day. */
export async function recordVisitor(
  tx: PoolClient,
  productId: string,
  visitorId: string,
  day: string,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO product_visitors (product_id, visitor_id, day) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [productId, visitorId, day],
  );
  return rowCount === 1;
}

/** Serialises the paid and refunded consumers of one purchase, so neither misses the other's row. */
export async function lockPurchase(tx: PoolClient, purchaseId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    `analytics.purchase:${purchaseId}`,
  ]);
}

export interface SaleRow {
  productId: string;
  currency: string;
  earningsMinor: number;
  /** A sandbox or test-key sale: counted apart, never as revenue. */
  testMode: boolean;
}

/** False when the purchase was recorded already (a second event about the same payment). */
export async function insertSale(
  tx: PoolClient,
  sale: SaleRow & { purchaseId: string; paidAt: string },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO sales (purchase_id, product_id, currency, earnings_minor, paid_at, test_mode)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (purchase_id) DO NOTHING`,
    [
      sale.purchaseId,
      sale.productId,
      sale.currency,
      sale.earningsMinor,
      sale.paidAt,
      sale.testMode,
    ],
  );
  return rowCount === 1;
}

export async function findSale(tx: PoolClient, purchaseId: string): Promise<SaleRow | null> {
  const { rows } = await tx.query<SaleRow>(
    `SELECT product_id AS "productId", currency, earnings_minor AS "earningsMinor", test_mode AS "testMode"
     FROM sales WHERE purchase_id = $1`,
    [purchaseId],
  );
  return rows[0] ?? null;
}

export async function insertRefund(
  tx: PoolClient,
  refund: { purchaseId: string; productId: string; refundedAt: string },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO refunds (purchase_id, product_id, refunded_at) VALUES ($1, $2, $3) ON CONFLICT (purchase_id) DO NOTHING`,
    [refund.purchaseId, refund.productId, refund.refundedAt],
  );
  return rowCount === 1;
}

export async function findRefundedAt(tx: PoolClient, purchaseId: string): Promise<string | null> {
  const { rows } = await tx.query<{ refundedAt: Date }>(
    `SELECT refunded_at AS "refundedAt" FROM refunds WHERE purchase_id = $1`,
    [purchaseId],
  );
  return rows[0]?.refundedAt.toISOString() ?? null;
}

import type { PoolClient } from '@lockdrop/db';

/** Writes of the consumers: raw events and the per-product per-day rollups built from them. */

export type DailyCounter = 'views' | 'checkouts_started' | 'sales' | 'refunds' | 'downloads';

/** Rows are written in one key order by every consumer, so two batches cannot deadlock on them. */
const byKey = <T>(rows: Map<string, T>): T[] =>
  [...rows.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, row]) => row);

export async function recordRawEvents(
  tx: PoolClient,
  rows: {
    event: { id: string; type: string; occurredAt: string; data: unknown };
    productId: string;
  }[],
): Promise<void> {
  await tx.query(
    `INSERT INTO raw_events (event_id, type, product_id, occurred_at, data)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::timestamptz[], $5::jsonb[])
     ON CONFLICT (event_id) DO NOTHING`,
    [
      rows.map(({ event }) => event.id),
      rows.map(({ event }) => event.type),
      rows.map(({ productId }) => productId),
      rows.map(({ event }) => event.occurredAt),
      rows.map(({ event }) => JSON.stringify(event.data)),
    ],
  );
}

/** Adds one to `counter` for each of `occurrences` (a product and day may come several times). */
export async function incrementDaily(
  tx: PoolClient,
  counter: DailyCounter,
  occurrences: { productId: string; day: string }[],
): Promise<void> {
  const totals = new Map<string, { productId: string; day: string; count: number }>();
  for (const { productId, day } of occurrences) {
    const key = `${productId}/${day}`;
    const total = totals.get(key) ?? { productId, day, count: 0 };
    total.count += 1;
    totals.set(key, total);
  }
  const rows = byKey(totals);
  // The column name comes from the DailyCounter union, never from input.
  await tx.query(
    `INSERT INTO product_daily (product_id, day, ${counter})
     SELECT * FROM unnest($1::uuid[], $2::date[], $3::int[])
     ON CONFLICT (product_id, day) DO UPDATE SET ${counter} = product_daily.${counter} + excluded.${counter}`,
    [rows.map((row) => row.productId), rows.map((row) => row.day), rows.map((row) => row.count)],
  );
}

export interface DailyRevenue {
  productId: string;
  day: string;
  currency: string;
  grossMinor: number;
  earningsMinor: number;
  refundedEarningsMinor: number;
}

export async function addDailyRevenue(tx: PoolClient, entries: DailyRevenue[]): Promise<void> {
  if (entries.length === 0) return;
  const totals = new Map<string, DailyRevenue>();
  for (const entry of entries) {
    const key = `${entry.productId}/${entry.day}/${entry.currency}`;
    const total = totals.get(key);
    if (!total) totals.set(key, { ...entry });
    else {
      total.grossMinor += entry.grossMinor;
      total.earningsMinor += entry.earningsMinor;
      total.refundedEarningsMinor += entry.refundedEarningsMinor;
    }
  }
  const rows = byKey(totals);
  await tx.query(
    `INSERT INTO product_daily_revenue (product_id, day, currency, gross_minor, earnings_minor, refunded_earnings_minor)
     SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
     ON CONFLICT (product_id, day, currency) DO UPDATE SET
       gross_minor = product_daily_revenue.gross_minor + excluded.gross_minor,
       earnings_minor = product_daily_revenue.earnings_minor + excluded.earnings_minor,
       refunded_earnings_minor = product_daily_revenue.refunded_earnings_minor + excluded.refunded_earnings_minor`,
    [
      rows.map((row) => row.productId),
      rows.map((row) => row.day),
      rows.map((row) => row.currency),
      rows.map((row) => row.grossMinor),
      rows.map((row) => row.earningsMinor),
      rows.map((row) => row.refundedEarningsMinor),
    ],
  );
}

export interface DailyTestSales {
  productId: string;
  day: string;
  currency: string;
  sales: number;
  refunds: number;
  grossMinor: number;
}

/** Test sales and their refunds, per product, day and currency: shown apart, never as revenue. */
export async function addDailyTestSales(tx: PoolClient, entries: DailyTestSales[]): Promise<void> {
  if (entries.length === 0) return;
  const totals = new Map<string, DailyTestSales>();
  for (const entry of entries) {
    const key = `${entry.productId}/${entry.day}/${entry.currency}`;
    const total = totals.get(key);
    if (!total) totals.set(key, { ...entry });
    else {
      total.sales += entry.sales;
      total.refunds += entry.refunds;
      total.grossMinor += entry.grossMinor;
    }
  }
  const rows = byKey(totals);
  await tx.query(
    `INSERT INTO product_daily_test_sales (product_id, day, currency, sales, refunds, gross_minor)
     SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::int[], $5::int[], $6::bigint[])
     ON CONFLICT (product_id, day, currency) DO UPDATE SET
       sales = product_daily_test_sales.sales + excluded.sales,
       refunds = product_daily_test_sales.refunds + excluded.refunds,
       gross_minor = product_daily_test_sales.gross_minor + excluded.gross_minor`,
    [
      rows.map((row) => row.productId),
      rows.map((row) => row.day),
      rows.map((row) => row.currency),
      rows.map((row) => row.sales),
      rows.map((row) => row.refunds),
      rows.map((row) => row.grossMinor),
    ],
  );
}

/** The visits not counted before: a visitor counts once per product and day. */
export async function recordVisitors(
  tx: PoolClient,
  visits: { productId: string; visitorId: string; day: string }[],
): Promise<{ productId: string; day: string }[]> {
  const { rows } = await tx.query<{ productId: string; day: string }>(
    `INSERT INTO product_visitors (product_id, visitor_id, day)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::date[]) ON CONFLICT DO NOTHING
     RETURNING product_id AS "productId", to_char(day, 'YYYY-MM-DD') AS day`,
    [
      visits.map((visit) => visit.productId),
      visits.map((visit) => visit.visitorId),
      visits.map((visit) => visit.day),
    ],
  );
  return rows;
}

/** Serialises the paid and refunded consumers of each purchase, so neither misses the other's row. */
export async function lockPurchases(tx: PoolClient, purchaseIds: string[]): Promise<void> {
  const keys = [
    ...new Set(purchaseIds.map((id) => `analytics.purchase:${id.toLowerCase()}`)),
  ].sort();
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended(key, 0))
     FROM unnest($1::text[]) WITH ORDINALITY AS k (key, position) ORDER BY position`,
    [keys],
  );
}

export interface SaleRow {
  productId: string;
  currency: string;
  earningsMinor: number;
  /** A sandbox or test-key sale: no money moved, so never revenue (issue 29). */
  testMode: boolean;
}

/** The purchases recorded now (lower-cased ids); one recorded already (a second event about the same payment) is left out. */
export async function insertSales(
  tx: PoolClient,
  sales: (SaleRow & { purchaseId: string; paidAt: string })[],
): Promise<Set<string>> {
  const { rows } = await tx.query<{ purchase_id: string }>(
    `INSERT INTO sales (purchase_id, product_id, currency, earnings_minor, paid_at, test_mode)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::timestamptz[], $6::boolean[])
     ON CONFLICT (purchase_id) DO NOTHING RETURNING purchase_id`,
    [
      sales.map((sale) => sale.purchaseId),
      sales.map((sale) => sale.productId),
      sales.map((sale) => sale.currency),
      sales.map((sale) => sale.earningsMinor),
      sales.map((sale) => sale.paidAt),
      sales.map((sale) => sale.testMode),
    ],
  );
  return new Set(rows.map((row) => row.purchase_id));
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

/** When each of the purchases was refunded, by lower-cased purchase id; absent when it was not. */
export async function findRefundedAt(
  tx: PoolClient,
  purchaseIds: string[],
): Promise<Map<string, string>> {
  const { rows } = await tx.query<{ purchase_id: string; refunded_at: Date }>(
    `SELECT purchase_id, refunded_at FROM refunds WHERE purchase_id = ANY($1::uuid[])`,
    [purchaseIds],
  );
  return new Map(rows.map((row) => [row.purchase_id, row.refunded_at.toISOString()]));
}

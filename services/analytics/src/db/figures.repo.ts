import type { Queryable } from '@lockdrop/db';

/** Reads of the rollups, always restricted to one owner's products and an inclusive range of UTC days. */

export interface DayRange {
  from: string;
  to: string;
}

export interface Counts {
  views: number;
  checkoutsStarted: number;
  sales: number;
  refunds: number;
  downloads: number;
}

export interface CurrencyRevenue {
  currency: string;
  grossMinor: number;
  earningsMinor: number;
  refundedEarningsMinor: number;
}

const COUNT_SUMS = `
  COALESCE(SUM(d.views), 0)::bigint AS views,
  COALESCE(SUM(d.checkouts_started), 0)::bigint AS "checkoutsStarted",
  COALESCE(SUM(d.sales), 0)::bigint AS sales,
  COALESCE(SUM(d.refunds), 0)::bigint AS refunds,
  COALESCE(SUM(d.downloads), 0)::bigint AS downloads`;

const REVENUE_SUMS = `
  r.currency,
  SUM(r.gross_minor)::bigint AS "grossMinor",
  SUM(r.earnings_minor)::bigint AS "earningsMinor",
  SUM(r.refunded_earnings_minor)::bigint AS "refundedEarningsMinor"`;

/** `productId` null: all of the owner's products. */
interface Scope {
  ownerId: string;
  productId?: string | null;
}

const scopeFilter = `p.owner_id = $1 AND ($4::uuid IS NULL OR p.product_id = $4)`;
const scopeParams = (scope: Scope, range: DayRange) => [
  scope.ownerId,
  range.from,
  range.to,
  scope.productId ?? null,
];

export async function sumCounts(db: Queryable, scope: Scope, range: DayRange): Promise<Counts> {
  const { rows } = await db.query<Counts>(
    `SELECT ${COUNT_SUMS} FROM product_daily d JOIN products p USING (product_id)
     WHERE ${scopeFilter} AND d.day BETWEEN $2 AND $3`,
    scopeParams(scope, range),
  );
  return rows[0]!;
}

export async function countUniqueVisitors(
  db: Queryable,
  scope: Scope,
  range: DayRange,
): Promise<number> {
  const { rows } = await db.query<{ visitors: number }>(
    `SELECT COUNT(DISTINCT v.visitor_id) AS visitors FROM product_visitors v JOIN products p USING (product_id)
     WHERE ${scopeFilter} AND v.day BETWEEN $2 AND $3`,
    scopeParams(scope, range),
  );
  return rows[0]!.visitors;
}

export async function sumRevenue(
  db: Queryable,
  scope: Scope,
  range: DayRange,
): Promise<CurrencyRevenue[]> {
  const { rows } = await db.query<CurrencyRevenue>(
    `SELECT ${REVENUE_SUMS} FROM product_daily_revenue r JOIN products p USING (product_id)
     WHERE ${scopeFilter} AND r.day BETWEEN $2 AND $3
     GROUP BY r.currency ORDER BY r.currency`,
    scopeParams(scope, range),
  );
  return rows;
}

export interface CurrencyTestSales {
  currency: string;
  sales: number;
  refunds: number;
  grossMinor: number;
}

/** Test (sandbox or test-key) sales in the range, per currency: kept out of every figure above. */
export async function sumTestSales(
  db: Queryable,
  scope: Scope,
  range: DayRange,
): Promise<CurrencyTestSales[]> {
  const { rows } = await db.query<CurrencyTestSales>(
    `SELECT t.currency, SUM(t.sales)::int AS sales, SUM(t.refunds)::int AS refunds,
       SUM(t.gross_minor)::bigint AS "grossMinor"
     FROM product_daily_test_sales t JOIN products p USING (product_id)
     WHERE ${scopeFilter} AND t.day BETWEEN $2 AND $3
     GROUP BY t.currency ORDER BY t.currency`,
    scopeParams(scope, range),
  );
  return rows;
}

export async function countsByProduct(
  db: Queryable,
  ownerId: string,
  range: DayRange,
): Promise<Map<string, Counts>> {
  const { rows } = await db.query<Counts & { productId: string }>(
    `SELECT d.product_id AS "productId", ${COUNT_SUMS} FROM product_daily d JOIN products p USING (product_id)
     WHERE p.owner_id = $1 AND d.day BETWEEN $2 AND $3 GROUP BY d.product_id`,
    [ownerId, range.from, range.to],
  );
  return new Map(rows.map(({ productId, ...counts }) => [productId, counts]));
}

export async function visitorsByProduct(
  db: Queryable,
  ownerId: string,
  range: DayRange,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ productId: string; visitors: number }>(
    `SELECT v.product_id AS "productId", COUNT(DISTINCT v.visitor_id) AS visitors
     FROM product_visitors v JOIN products p USING (product_id)
     WHERE p.owner_id = $1 AND v.day BETWEEN $2 AND $3 GROUP BY v.product_id`,
    [ownerId, range.from, range.to],
  );
  return new Map(rows.map((row) => [row.productId, row.visitors]));
}

export async function revenueByProduct(
  db: Queryable,
  ownerId: string,
  range: DayRange,
): Promise<Map<string, CurrencyRevenue[]>> {
  const { rows } = await db.query<CurrencyRevenue & { productId: string }>(
    `SELECT r.product_id AS "productId", ${REVENUE_SUMS} FROM product_daily_revenue r JOIN products p USING (product_id)
     WHERE p.owner_id = $1 AND r.day BETWEEN $2 AND $3
     GROUP BY r.product_id, r.currency ORDER BY r.currency`,
    [ownerId, range.from, range.to],
  );
  const byProduct = new Map<string, CurrencyRevenue[]>();
  for (const { productId, ...revenue } of rows)
    byProduct.set(productId, [...(byProduct.get(productId) ?? []), revenue]);
  return byProduct;
}

export interface DailyRow extends Counts {
  day: string;
  visitors: number;
}

/** Only days with activity; the domain fills the gaps. */
export async function dailyCounts(
  db: Queryable,
  productId: string,
  range: DayRange,
): Promise<DailyRow[]> {
  const { rows } = await db.query<DailyRow>(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, ${COUNT_SUMS},
       (SELECT COUNT(*) FROM product_visitors v WHERE v.product_id = d.product_id AND v.day = d.day) AS visitors
     FROM product_daily d WHERE d.product_id = $1 AND d.day BETWEEN $2 AND $3
     GROUP BY d.product_id, d.day`,
    [productId, range.from, range.to],
  );
  return rows;
}

export async function dailyRevenue(
  db: Queryable,
  productId: string,
  range: DayRange,
): Promise<(CurrencyRevenue & { day: string })[]> {
  const { rows } = await db.query<CurrencyRevenue & { day: string }>(
    `SELECT to_char(r.day, 'YYYY-MM-DD') AS day, ${REVENUE_SUMS} FROM product_daily_revenue r
     WHERE r.product_id = $1 AND r.day BETWEEN $2 AND $3 GROUP BY r.day, r.currency ORDER BY r.currency`,
    [productId, range.from, range.to],
  );
  return rows;
}

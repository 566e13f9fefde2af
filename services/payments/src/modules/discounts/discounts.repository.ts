import type { Queryable } from '@lockdrop/db';

export type DiscountKind = 'percent' | 'fixed';

export interface DiscountCodeRow {
  id: string;
  sellerId: string;
  /** As the seller typed it; matched without regard to case. */
  code: string;
  kind: DiscountKind;
  percentOff: number | null;
  amountOffMinor: number | null;
  currency: string | null;
  /** null: every product of the seller. */
  productIds: string[] | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  maxUsesPerBuyer: number | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Paid uses, and checkouts holding a use while their payment page is open. */
export interface DiscountUsage {
  uses: number;
  reserved: number;
}

const COLUMNS = `id, seller_id AS "sellerId", code, kind, percent_off AS "percentOff",
  amount_off_minor AS "amountOffMinor", currency, product_ids AS "productIds", starts_at AS "startsAt",
  ends_at AS "endsAt", max_uses AS "maxUses", max_uses_per_buyer AS "maxUsesPerBuyer", active,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * A checkout counts against its code once paid, or while its payment page still takes payment
 * (a free claim: while its confirmation link works).
 */
const HOLDS_A_USE = `(c.status = 'paid' OR (c.status IN ('creating', 'open', 'failed', 'awaiting_email') AND c.expires_at > $2))`;

/** True when the code was new; false when the seller already has one spelled the same. */
export async function insertDiscountCode(db: Queryable, row: DiscountCodeRow): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO discount_codes (id, seller_id, code, kind, percent_off, amount_off_minor, currency, product_ids,
       starts_at, ends_at, max_uses, max_uses_per_buyer, active, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (seller_id, upper(code)) DO NOTHING`,
    [
      row.id,
      row.sellerId,
      row.code,
      row.kind,
      row.percentOff,
      row.amountOffMinor,
      row.currency,
      row.productIds,
      row.startsAt,
      row.endsAt,
      row.maxUses,
      row.maxUsesPerBuyer,
      row.active,
      row.createdAt,
      row.updatedAt,
    ],
  );
  return rowCount === 1;
}

export async function saveDiscountCode(db: Queryable, row: DiscountCodeRow): Promise<void> {
  await db.query(
    `UPDATE discount_codes SET code = $2, kind = $3, percent_off = $4, amount_off_minor = $5, currency = $6,
       product_ids = $7, starts_at = $8, ends_at = $9, max_uses = $10, max_uses_per_buyer = $11, active = $12,
       updated_at = $13
     WHERE id = $1`,
    [
      row.id,
      row.code,
      row.kind,
      row.percentOff,
      row.amountOffMinor,
      row.currency,
      row.productIds,
      row.startsAt,
      row.endsAt,
      row.maxUses,
      row.maxUsesPerBuyer,
      row.active,
      row.updatedAt,
    ],
  );
}

export async function deleteDiscountCode(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM discount_codes WHERE id = $1', [id]);
}

/** The seller's code with this id (anyone else's reads as absent). */
export async function findOwnDiscountCode(
  db: Queryable,
  sellerId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DiscountCodeRow | null> {
  const { rows } = await db.query<DiscountCodeRow>(
    `SELECT ${COLUMNS} FROM discount_codes WHERE id = $1 AND seller_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, sellerId],
  );
  return rows[0] ?? null;
}

/**
 * The seller's code a buyer typed. `forUpdate` locks it, so racing checkouts with the same code
 * count its uses one after another.
 */
export async function findDiscountCodeByCode(
  db: Queryable,
  sellerId: string,
  code: string,
  options: { forUpdate?: boolean } = {},
): Promise<DiscountCodeRow | null> {
  const { rows } = await db.query<DiscountCodeRow>(
    `SELECT ${COLUMNS} FROM discount_codes WHERE seller_id = $1 AND upper(code) = upper($2)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [sellerId, code],
  );
  return rows[0] ?? null;
}

export async function listDiscountCodes(
  db: Queryable,
  sellerId: string,
): Promise<DiscountCodeRow[]> {
  const { rows } = await db.query<DiscountCodeRow>(
    `SELECT ${COLUMNS} FROM discount_codes WHERE seller_id = $1 ORDER BY created_at DESC, id`,
    [sellerId],
  );
  return rows;
}

/** Uses of each code at `now` (codes without any are absent from the map). */
export async function discountUsage(
  db: Queryable,
  codeIds: string[],
  now: Date,
): Promise<Map<string, DiscountUsage>> {
  const { rows } = await db.query<{ id: string; uses: number; reserved: number }>(
    `SELECT c.discount_code_id AS id,
            count(*) FILTER (WHERE c.status = 'paid')::int AS uses,
            count(*) FILTER (WHERE c.status <> 'paid')::int AS reserved
     FROM checkouts c
     WHERE c.discount_code_id = ANY($1) AND ${HOLDS_A_USE}
     GROUP BY c.discount_code_id`,
    [codeIds, now],
  );
  return new Map(rows.map((row) => [row.id, { uses: row.uses, reserved: row.reserved }]));
}

/** Uses of one code held by one buyer e-mail (paid, or a payment page still open). */
export async function buyerDiscountUses(
  db: Queryable,
  codeId: string,
  now: Date,
  buyerEmail: string,
): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM checkouts c
     WHERE c.discount_code_id = $1 AND ${HOLDS_A_USE} AND lower(c.buyer_email) = lower($3)`,
    [codeId, now, buyerEmail],
  );
  return rows[0]?.count ?? 0;
}

export interface DiscountRevenue {
  codeId: string;
  currency: string;
  amountMinor: number;
}

/** What each code's purchases brought, per currency; refunded purchases are taken out. */
export async function discountRevenue(
  db: Queryable,
  codeIds: string[],
): Promise<DiscountRevenue[]> {
  const { rows } = await db.query<DiscountRevenue>(
    `SELECT c.discount_code_id AS "codeId", p.currency, sum(p.amount_minor)::bigint AS "amountMinor"
     FROM purchases p JOIN checkouts c ON c.id = p.checkout_id
     WHERE c.discount_code_id = ANY($1) AND p.status = 'paid'
     GROUP BY c.discount_code_id, p.currency
     ORDER BY p.currency`,
    [codeIds],
  );
  return rows.map((row) => ({ ...row, amountMinor: Number(row.amountMinor) }));
}

import type { Queryable } from '@lockdrop/db';

export interface StoreBrandRow {
  sellerId: string;
  handle: string;
  name: string;
  logoId: string | null;
  accentColour: string | null;
  /** Billing's latest word on the seller's plan, else the plan their token named at save. */
  plan: string;
  /**
   * The store's verified custom domain and the plan it is judged by (as for `plan`), or null
   * when it has none verified: read with the brand, so a product read costs no extra query.
   */
  verifiedDomain: { host: string; plan: string } | null;
}

const SELECT_BRAND = `
  SELECT b.seller_id, b.handle, b.name, b.logo_id, b.accent_colour,
         coalesce(p.plan, b.plan_at_save) AS plan,
         d.host AS domain_host, coalesce(p.plan, d.plan_at_save) AS domain_plan
    FROM store_brands b
    LEFT JOIN seller_plans p ON p.user_id = b.seller_id AND NOT p.deleted
    LEFT JOIN store_domains d ON d.seller_id = b.seller_id AND d.status = 'verified'`;

interface Row {
  seller_id: string;
  handle: string;
  name: string;
  logo_id: string | null;
  accent_colour: string | null;
  plan: string;
  domain_host: string | null;
  domain_plan: string | null;
}

const toBrand = (row: Row): StoreBrandRow => ({
  sellerId: row.seller_id,
  handle: row.handle,
  name: row.name,
  logoId: row.logo_id,
  accentColour: row.accent_colour,
  plan: row.plan,
  verifiedDomain:
    row.domain_host && row.domain_plan ? { host: row.domain_host, plan: row.domain_plan } : null,
});

export async function findBrandOf(db: Queryable, sellerId: string): Promise<StoreBrandRow | null> {
  const { rows } = await db.query<Row>(`${SELECT_BRAND} WHERE b.seller_id = $1`, [sellerId]);
  return rows[0] ? toBrand(rows[0]) : null;
}

export async function findBrandByHandle(
  db: Queryable,
  handle: string,
): Promise<StoreBrandRow | null> {
  const { rows } = await db.query<Row>(`${SELECT_BRAND} WHERE b.handle = $1`, [handle]);
  return rows[0] ? toBrand(rows[0]) : null;
}

/** Inserts or replaces the seller's brand; a handle another seller holds raises 23505. */
export async function saveBrand(
  db: Queryable,
  brand: Omit<StoreBrandRow, 'plan' | 'verifiedDomain'> & { planAtSave: string },
): Promise<void> {
  await db.query(
    `INSERT INTO store_brands (seller_id, handle, name, logo_id, accent_colour, plan_at_save)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (seller_id) DO UPDATE SET handle = excluded.handle, name = excluded.name,
       logo_id = excluded.logo_id, accent_colour = excluded.accent_colour,
       plan_at_save = excluded.plan_at_save, updated_at = now()`,
    [brand.sellerId, brand.handle, brand.name, brand.logoId, brand.accentColour, brand.planAtSave],
  );
}

/** A seller's announced full name (seller_names), kept only if newer than the one stored. */
export async function saveSellerName(
  db: Queryable,
  sellerId: string,
  fullName: string,
  changedAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO seller_names (seller_id, full_name, changed_at) VALUES ($1, $2, $3)
     ON CONFLICT (seller_id) DO UPDATE SET full_name = EXCLUDED.full_name, changed_at = EXCLUDED.changed_at
     WHERE seller_names.changed_at <= EXCLUDED.changed_at`,
    [sellerId, fullName, changedAt],
  );
}

export async function forgetSellerName(db: Queryable, sellerId: string): Promise<void> {
  await db.query('DELETE FROM seller_names WHERE seller_id = $1', [sellerId]);
}

/**
 * A seller's brand row (or null) and the name buyers see for them, in one statement (a product
 * read asks for both): their store's name when they named one (on any plan: a name is not
 * branding), else their full name; null when neither is known or both are blank.
 */
export async function findBrandAndNameOf(
  db: Queryable,
  sellerId: string,
): Promise<{ brand: StoreBrandRow | null; sellerName: string | null }> {
  const { rows } = await db.query<Partial<Row> & { seller_name: string | null }>(
    `SELECT brand.*, COALESCE(NULLIF(btrim(brand.name), ''), NULLIF(btrim(n.full_name), ''))
              AS seller_name
       FROM (SELECT $1::uuid AS id) seller
       LEFT JOIN LATERAL (${SELECT_BRAND} WHERE b.seller_id = seller.id) brand ON true
       LEFT JOIN seller_names n ON n.seller_id = seller.id`,
    [sellerId],
  );
  const row = rows[0];
  return {
    brand: row?.seller_id ? toBrand(row as Row) : null,
    sellerName: row?.seller_name ?? null,
  };
}

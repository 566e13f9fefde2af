import type { Queryable } from '@lockdrop/db';

/** Analytics' read model of a catalog product: enough to filter by owner and name it. */
export interface OwnedProduct {
  productId: string;
  title: string;
  deleted: boolean;
}

/**
 * Stores owner and title unless a newer snapshot (or the deletion) was applied already: the
 * product events arrive on separate consumers, so an update can overtake the creation.
 */
export async function applyProductSnapshot(
  db: Queryable,
  product: { productId: string; ownerId: string; title: string },
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO products AS p (product_id, owner_id, title, applied_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (product_id) DO UPDATE SET owner_id = excluded.owner_id, title = excluded.title, applied_at = excluded.applied_at
     WHERE NOT p.deleted AND p.applied_at <= excluded.applied_at`,
    [product.productId, product.ownerId, product.title, occurredAt],
  );
}

/** Keeps the row (its figures still belong to the seller) and tombstones it against late snapshots. */
export async function markProductDeleted(
  db: Queryable,
  productId: string,
  ownerId: string,
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO products (product_id, owner_id, title, deleted, applied_at) VALUES ($1, $2, '', true, $3)
     ON CONFLICT (product_id) DO UPDATE SET deleted = true, applied_at = GREATEST(products.applied_at, excluded.applied_at)`,
    [productId, ownerId, occurredAt],
  );
}

export async function findOwnedProduct(
  db: Queryable,
  ownerId: string,
  productId: string,
): Promise<OwnedProduct | null> {
  const { rows } = await db.query<OwnedProduct>(
    `SELECT product_id AS "productId", title, deleted FROM products WHERE product_id = $1 AND owner_id = $2`,
    [productId, ownerId],
  );
  return rows[0] ?? null;
}

export async function listOwnedProducts(db: Queryable, ownerId: string): Promise<OwnedProduct[]> {
  const { rows } = await db.query<OwnedProduct>(
    `SELECT product_id AS "productId", title, deleted FROM products WHERE owner_id = $1 ORDER BY deleted, title, product_id`,
    [ownerId],
  );
  return rows;
}

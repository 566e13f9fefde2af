import {
  applyNewestSnapshot,
  applyTombstone,
  type Queryable,
  type ReadModelTable,
} from '@lockdrop/db';

const PRODUCTS: ReadModelTable = { table: 'products', key: 'product_id', version: 'applied_at' };

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
  await applyNewestSnapshot(db, PRODUCTS, product.productId, occurredAt, {
    owner_id: product.ownerId,
    title: product.title,
  });
}

/** Keeps the row (its figures still belong to the seller) and tombstones it against late snapshots. */
export async function markProductDeleted(
  db: Queryable,
  productId: string,
  ownerId: string,
  occurredAt: string,
): Promise<void> {
  await applyTombstone(db, PRODUCTS, productId, occurredAt, { owner_id: ownerId, title: '' });
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

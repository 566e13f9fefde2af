import type { EventData } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

export type ProductSnapshot = EventData<'product.updated'>;

/** Delivery's read model of a catalog product: what previews and file deletion need. */
export interface ProductView {
  productId: string;
  ownerId: string;
  fileId: string;
  status: ProductSnapshot['status'];
  previewEnabled: boolean;
  blurPercentage: number;
  deleted: boolean;
}

const COLUMNS = `product_id AS "productId", owner_id AS "ownerId", file_id AS "fileId", status,
  preview_enabled AS "previewEnabled", blur_percentage AS "blurPercentage", deleted`;

export async function findProduct(db: Queryable, productId: string): Promise<ProductView | null> {
  const { rows } = await db.query<ProductView>(
    `SELECT ${COLUMNS} FROM products WHERE product_id = $1`,
    [productId],
  );
  return rows[0] ?? null;
}

/**
 * Stores a snapshot unless a newer one (or the deletion) was applied already; events reach us
 * on separate consumers, so a `product.updated` can overtake the `product.created` before it.
 * Returns the row as it was before, and whether this snapshot was applied.
 */
export async function applyProductSnapshot(
  db: Queryable,
  snapshot: ProductSnapshot,
  occurredAt: string,
): Promise<{ applied: boolean; before: ProductView | null }> {
  const { rows: before } = await db.query<ProductView>(
    `SELECT ${COLUMNS} FROM products WHERE product_id = $1 FOR UPDATE`,
    [snapshot.productId],
  );
  const { rowCount } = await db.query(
    `INSERT INTO products AS p (product_id, owner_id, file_id, status, preview_enabled, blur_percentage, applied_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (product_id) DO UPDATE SET
       owner_id = excluded.owner_id, file_id = excluded.file_id, status = excluded.status,
       preview_enabled = excluded.preview_enabled, blur_percentage = excluded.blur_percentage,
       applied_at = excluded.applied_at
     WHERE NOT p.deleted AND p.applied_at <= excluded.applied_at`,
    [
      snapshot.productId,
      snapshot.ownerId,
      snapshot.fileId,
      snapshot.status,
      snapshot.previewEnabled,
      snapshot.previewBlurPercentage,
      occurredAt,
    ],
  );
  return { applied: rowCount === 1, before: before[0] ?? null };
}

/** A tombstone, so a snapshot delivered after the deletion cannot bring the product back. */
export async function markProductDeleted(
  db: Queryable,
  productId: string,
  ownerId: string,
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO products (product_id, owner_id, file_id, status, preview_enabled, blur_percentage, deleted, applied_at)
     VALUES ($1, $2, '00000000-0000-0000-0000-000000000000', 'draft', false, 0, true, $3)
     ON CONFLICT (product_id) DO UPDATE SET deleted = true, applied_at = GREATEST(products.applied_at, excluded.applied_at)`,
    [productId, ownerId, occurredAt],
  );
}

export async function isFileUsedByProduct(db: Queryable, fileId: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM products WHERE file_id = $1 AND NOT deleted LIMIT 1',
    [fileId],
  );
  return rows.length > 0;
}

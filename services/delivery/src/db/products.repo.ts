import type { EventData } from '@lockdrop/contracts';
import {
  applyNewestSnapshot,
  applyTombstone,
  type Queryable,
  type ReadModelTable,
} from '@lockdrop/db';

const PRODUCTS: ReadModelTable = { table: 'products', key: 'product_id', version: 'applied_at' };

export type ProductSnapshot = EventData<'product.updated'>;

/** Delivery's read model of a catalog product: what previews and file deletion need. */
export interface ProductView {
  productId: string;
  ownerId: string;
  /** The preview source: one of the files buyers get (`file_ids`, see findPurchaseFiles). */
  fileId: string;
  status: ProductSnapshot['status'];
  previewEnabled: boolean;
  blurPercentage: number;
  /** Buyers get their own copy of a PDF, stamped with their e-mail. */
  stampPdfs: boolean;
  deleted: boolean;
}

const COLUMNS = `product_id AS "productId", owner_id AS "ownerId", file_id AS "fileId", status,
  preview_enabled AS "previewEnabled", blur_percentage AS "blurPercentage", stamp_pdfs AS "stampPdfs", deleted`;

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
  const applied = await applyNewestSnapshot(db, PRODUCTS, snapshot.productId, occurredAt, {
    owner_id: snapshot.ownerId,
    file_id: snapshot.fileId,
    // Events from before products had several files name only the one.
    file_ids: snapshot.files?.map((file) => file.fileId) ?? [snapshot.fileId],
    status: snapshot.status,
    preview_enabled: snapshot.previewEnabled,
    blur_percentage: snapshot.previewBlurPercentage,
    stamp_pdfs: snapshot.stampPdfs ?? false,
  });
  return { applied, before: before[0] ?? null };
}

/**
 * A tombstone, so a snapshot delivered after the deletion cannot bring the product back. It
 * keeps the product's files (`file_ids`): its buyers still download them.
 */
export async function markProductDeleted(
  db: Queryable,
  productId: string,
  ownerId: string,
  occurredAt: string,
): Promise<void> {
  await applyTombstone(db, PRODUCTS, productId, occurredAt, {
    owner_id: ownerId,
    file_id: '00000000-0000-0000-0000-000000000000',
    status: 'draft',
    preview_enabled: false,
    blur_percentage: 0,
  });
}

/** True while a live product sells the file, as any of its files. */
export async function isFileUsedByProduct(db: Queryable, fileId: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM products WHERE file_ids @> ARRAY[$1::uuid] AND NOT deleted LIMIT 1',
    [fileId],
  );
  return rows.length > 0;
}

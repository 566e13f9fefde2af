import type { Queryable } from '@lockdrop/db';
import type { FileKind, Pricing, Product, ProductFile, ProductStatus } from '../domain/product.js';
import { shortIdRange, type BillingInterval } from '@lockdrop/contracts';

interface ProductRow {
  id: string;
  owner_id: string;
  title: string;
  description: string | null;
  price_minor: number;
  currency: string;
  pricing_type: Pricing['type'];
  pricing_interval: BillingInterval | null;
  status: ProductStatus;
  file_id: string;
  file_name: string;
  file_size_bytes: number;
  file_kind: FileKind;
  preview_enabled: boolean;
  preview_blur_percentage: number;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  minimum_price_minor: number | null;
  stamp_pdfs: boolean;
  files: ProductFile[];
  buyers_told_at: Date | null;
}

const COLUMNS = `id, owner_id, title, description, price_minor, currency, pricing_type, pricing_interval,
  status, file_id, file_name, file_size_bytes, file_kind, preview_enabled, preview_blur_percentage,
  created_at, updated_at, published_at, minimum_price_minor, stamp_pdfs, files, buyers_told_at`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    description: row.description,
    priceMinor: row.price_minor,
    currency: row.currency,
    pricing:
      row.pricing_type === 'recurring' && row.pricing_interval
        ? { type: 'recurring', interval: row.pricing_interval }
        : { type: 'one_time' },
    status: row.status,
    fileId: row.file_id,
    fileName: row.file_name,
    fileSizeBytes: row.file_size_bytes,
    fileKind: row.file_kind,
    previewEnabled: row.preview_enabled,
    previewBlurPercentage: row.preview_blur_percentage,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
    minimumPriceMinor: row.minimum_price_minor,
    stampPdfs: row.stamp_pdfs,
    files: row.files,
    buyersToldAt: row.buyers_told_at,
  };
}

function values(product: Product): unknown[] {
  return [
    product.id,
    product.ownerId,
    product.title,
    product.description,
    product.priceMinor,
    product.currency,
    product.pricing.type,
    product.pricing.type === 'recurring' ? product.pricing.interval : null,
    product.status,
    product.fileId,
    product.fileName,
    product.fileSizeBytes,
    product.fileKind,
    product.previewEnabled,
    product.previewBlurPercentage,
    product.createdAt,
    product.updatedAt,
    product.publishedAt,
    product.minimumPriceMinor,
    product.stampPdfs,
    JSON.stringify(product.files),
    product.buyersToldAt,
  ];
}

export async function insertProduct(db: Queryable, product: Product): Promise<void> {
  await db.query(
    `INSERT INTO products (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
    values(product),
  );
  await notifyProductChanged(db, product.id);
}

/** The channel every product write notifies, in its own transaction (delivered on commit). */
export const PRODUCT_CHANNEL = 'catalog_products';

/**
 * Tells every catalog process (this one included) that product `id` changed, once `db` commits:
 * their product caches (db/product-cache.ts) drop it. Every write below calls it.
 */
async function notifyProductChanged(db: Queryable, id: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [PRODUCT_CHANNEL, id]);
}

/** Writes every mutable column of `product` (the id and owner never change). */
export async function saveProduct(db: Queryable, product: Product): Promise<void> {
  await db.query(
    `UPDATE products SET title = $3, description = $4, price_minor = $5, currency = $6, pricing_type = $7,
       pricing_interval = $8, status = $9, file_id = $10, file_name = $11, file_size_bytes = $12, file_kind = $13,
       preview_enabled = $14, preview_blur_percentage = $15, updated_at = $16, published_at = $17,
       minimum_price_minor = $18, stamp_pdfs = $19, files = $20, buyers_told_at = $21
     WHERE id = $1 AND owner_id = $2`,
    // Every column but created_at, which never changes.
    values(product).filter((_value, index) => index !== 15),
  );
  await notifyProductChanged(db, product.id);
}

/** A live (not deleted) product; `forUpdate` locks the row for a read-modify-write. */
export async function findProduct(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Product | null> {
  // An id that is not a uuid names no product; asking Postgres would be a cast error.
  if (!UUID.test(id)) return null;
  const { rows } = await db.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products WHERE id = $1 AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toProduct(rows[0]) : null;
}

/**
 * The id of the product a short id (`/p/<slug>-<shortId>`) stands for: the one product whose
 * id starts with its 64 bits. `includeDeleted` is for creation's uniqueness check: a deleted
 * product's short id is never given to another product, so an old link never finds a new one.
 */
export async function productIdByShortId(
  db: Queryable,
  shortId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<string | null> {
  const range = shortIdRange(shortId);
  if (!range) return null;
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM products WHERE id BETWEEN $1 AND $2${options.includeDeleted ? '' : ' AND deleted_at IS NULL'} LIMIT 1`,
    [range.from, range.to],
  );
  return rows[0]?.id ?? null;
}

export async function listProductsOf(db: Queryable, ownerId: string): Promise<Product[]> {
  const { rows } = await db.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id`,
    [ownerId],
  );
  return rows.map(toProduct);
}

/**
 * One `/api/v1` page of the owner's live products, newest first (`created_at DESC, id DESC`),
 * `limit + 1` rows after the cursor (see `pageOfRows`). Null when `startingAfter` names none of
 * the owner's products (someone else's id included): the caller answers 400, learning nothing.
 * A deleted product of theirs still works as a cursor, so a page boundary may disappear.
 */
export async function pageProductsOf(
  db: Queryable,
  ownerId: string,
  { startingAfter, limit }: { startingAfter?: string | undefined; limit: number },
): Promise<Product[] | null> {
  if (startingAfter !== undefined) {
    if (!UUID.test(startingAfter)) return null;
    const { rows } = await db.query<{ created_at: Date; id: string }>(
      'SELECT created_at, id FROM products WHERE id = $1 AND owner_id = $2',
      [startingAfter, ownerId],
    );
    const cursor = rows[0];
    if (!cursor) return null;
    const page = await db.query<ProductRow>(
      `SELECT ${COLUMNS} FROM products
        WHERE owner_id = $1 AND deleted_at IS NULL AND (created_at, id) < ($2, $3)
        ORDER BY created_at DESC, id DESC LIMIT $4`,
      [ownerId, cursor.created_at, cursor.id, limit + 1],
    );
    return page.rows.map(toProduct);
  }
  const { rows } = await db.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products WHERE owner_id = $1 AND deleted_at IS NULL
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [ownerId, limit + 1],
  );
  return rows.map(toProduct);
}

/** A store page's products: the seller's published ones, newest first. */
export async function listPublishedOf(db: Queryable, ownerId: string): Promise<Product[]> {
  const { rows } = await db.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products
      WHERE owner_id = $1 AND status = 'published' AND deleted_at IS NULL
      ORDER BY published_at DESC, id LIMIT 200`,
    [ownerId],
  );
  return rows.map(toProduct);
}

export async function markProductDeleted(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE products SET deleted_at = $2, updated_at = $2 WHERE id = $1', [id, at]);
  await notifyProductChanged(db, id);
}

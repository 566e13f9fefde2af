import type { Queryable } from '@lockdrop/db';
import type { EventData } from '@lockdrop/contracts';
import type { ExchangeRate } from '@lockdrop/money';

export interface ProductView {
  id: string;
  ownerId: string;
  title: string;
  priceMinor: number;
  currency: string;
  pricingType: string;
  status: string;
  fileId: string | null;
  fileName: string | null;
  deleted: boolean;
}

type ProductSnapshot = EventData<'product.published'>;

/** Applies a snapshot unless a newer one already arrived (events may be redelivered out of order). */
export async function upsertProduct(
  db: Queryable,
  product: ProductSnapshot,
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO products (id, owner_id, title, price_minor, currency, pricing_type, status, file_id, file_name,
                           file_size_bytes, source_occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (id) DO UPDATE SET owner_id = EXCLUDED.owner_id, title = EXCLUDED.title,
       price_minor = EXCLUDED.price_minor, currency = EXCLUDED.currency, pricing_type = EXCLUDED.pricing_type,
       status = EXCLUDED.status, file_id = EXCLUDED.file_id, file_name = EXCLUDED.file_name,
       file_size_bytes = EXCLUDED.file_size_bytes, source_occurred_at = EXCLUDED.source_occurred_at
     WHERE products.source_occurred_at <= EXCLUDED.source_occurred_at AND NOT products.deleted`,
    [
      product.productId,
      product.ownerId,
      product.title,
      product.priceMinor,
      product.currency,
      product.pricing.type,
      product.status,
      product.fileId,
      product.fileName,
      product.fileSizeBytes,
      occurredAt,
    ],
  );
}

export async function markProductDeleted(
  db: Queryable,
  productId: string,
  ownerId: string,
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO products (id, owner_id, title, price_minor, currency, pricing_type, status, deleted, source_occurred_at)
     VALUES ($1, $2, '', 0, 'USD', 'one_time', 'draft', true, $3)
     ON CONFLICT (id) DO UPDATE SET deleted = true, source_occurred_at = GREATEST(products.source_occurred_at, EXCLUDED.source_occurred_at)`,
    [productId, ownerId, occurredAt],
  );
}

export async function findProduct(db: Queryable, productId: string): Promise<ProductView | null> {
  const { rows } = await db.query<ProductView>(
    `SELECT id, owner_id AS "ownerId", title, price_minor AS "priceMinor", currency, pricing_type AS "pricingType",
            status, file_id AS "fileId", file_name AS "fileName", deleted
     FROM products WHERE id = $1`,
    [productId],
  );
  return rows[0] ?? null;
}

export async function upsertSellerPlan(
  db: Queryable,
  userId: string,
  plan: string,
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO sellers (user_id, plan, source_occurred_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET plan = EXCLUDED.plan, source_occurred_at = EXCLUDED.source_occurred_at
     WHERE sellers.source_occurred_at <= EXCLUDED.source_occurred_at`,
    [userId, plan, occurredAt],
  );
}

/** null until identity has told us about the seller (checkout then uses the free plan). */
export async function findSellerPlan(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ plan: string }>('SELECT plan FROM sellers WHERE user_id = $1', [
    userId,
  ]);
  return rows[0]?.plan ?? null;
}

export async function upsertExchangeRates(
  db: Queryable,
  rates: ExchangeRate[],
  occurredAt: string,
): Promise<void> {
  for (const rate of rates) {
    await db.query(
      `INSERT INTO exchange_rates (from_currency, to_currency, rate, source_occurred_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (from_currency, to_currency) DO UPDATE SET rate = EXCLUDED.rate, source_occurred_at = EXCLUDED.source_occurred_at
       WHERE exchange_rates.source_occurred_at <= EXCLUDED.source_occurred_at`,
      [rate.from, rate.to, String(rate.rate), occurredAt],
    );
  }
}

export async function listExchangeRates(db: Queryable): Promise<ExchangeRate[]> {
  const { rows } = await db.query<ExchangeRate>(
    'SELECT from_currency AS "from", to_currency AS "to", rate FROM exchange_rates',
  );
  return rows;
}

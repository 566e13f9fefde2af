import {
  applyNewestSnapshot,
  applyTombstone,
  type Queryable,
  type ReadModelTable,
} from '@lockdrop/db';
import type { EventData, PublicBrand } from '@lockdrop/contracts';
import { planById } from '@lockdrop/plans';
import type { ExchangeRate } from '@lockdrop/money';
import type { BillingInterval } from '@lockdrop/contracts';

export interface ProductView {
  id: string;
  ownerId: string;
  title: string;
  priceMinor: number;
  currency: string;
  pricingType: string;
  /** Set for recurring prices; null for one-time (and for rows written before it was kept). */
  billingInterval: BillingInterval | null;
  /** Pay what you want: the least accepted (`priceMinor` is the suggestion); null for a fixed price. */
  minimumPriceMinor: number | null;
  status: string;
  fileId: string | null;
  fileName: string | null;
  deleted: boolean;
}

type ProductSnapshot = EventData<'product.published'>;

const PRODUCTS: ReadModelTable = { table: 'products', key: 'id', version: 'source_occurred_at' };

/** Applies a snapshot unless a newer one (or the deletion) already arrived. */
export async function upsertProduct(
  db: Queryable,
  product: ProductSnapshot,
  occurredAt: string,
): Promise<void> {
  await applyNewestSnapshot(db, PRODUCTS, product.productId, occurredAt, {
    owner_id: product.ownerId,
    title: product.title,
    price_minor: product.priceMinor,
    currency: product.currency,
    pricing_type: product.pricing.type,
    billing_interval: product.pricing.type === 'recurring' ? product.pricing.interval : null,
    minimum_price_minor: product.minimumPriceMinor ?? null,
    status: product.status,
    file_id: product.fileId,
    file_name: product.fileName,
    file_size_bytes: product.fileSizeBytes,
  });
}

export async function markProductDeleted(
  db: Queryable,
  productId: string,
  ownerId: string,
  occurredAt: string,
): Promise<void> {
  await applyTombstone(db, PRODUCTS, productId, occurredAt, {
    owner_id: ownerId,
    title: '',
    price_minor: 0,
    currency: 'USD',
    pricing_type: 'one_time',
    status: 'draft',
  });
}

export async function findProduct(db: Queryable, productId: string): Promise<ProductView | null> {
  const { rows } = await db.query<ProductView>(
    `SELECT id, owner_id AS "ownerId", title, price_minor AS "priceMinor", currency, pricing_type AS "pricingType",
       billing_interval AS "billingInterval", minimum_price_minor AS "minimumPriceMinor",
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

/**
 * The seller's address, for the e-mails payments sends them ("You made a sale"): newest profile
 * wins, on a version of its own, so a `plan.changed` that overtook the profile never hides it.
 */
export async function upsertSellerEmail(
  db: Queryable,
  userId: string,
  email: string,
  plan: string,
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO sellers (user_id, plan, source_occurred_at, email, email_occurred_at) VALUES ($1, $2, $3, $4, $3)
     ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, email_occurred_at = EXCLUDED.email_occurred_at
     WHERE sellers.email_occurred_at IS NULL OR sellers.email_occurred_at <= EXCLUDED.email_occurred_at`,
    [userId, plan, occurredAt, email],
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

/** Every stored rate; with `publishedSince`, only those the source published since then. */
export async function listExchangeRates(
  db: Queryable,
  publishedSince: Date | null = null,
): Promise<ExchangeRate[]> {
  const { rows } = await db.query<ExchangeRate>(
    `SELECT from_currency AS "from", to_currency AS "to", rate FROM exchange_rates
     WHERE $1::timestamptz IS NULL OR source_occurred_at >= $1`,
    [publishedSince],
  );
  return rows;
}

const SELLER_BRANDS: ReadModelTable = {
  table: 'seller_brands',
  key: 'seller_id',
  version: 'source_occurred_at',
};

/** Keeps catalog's newest `store.brand_updated` per seller (a late older one changes nothing). */
export async function upsertSellerBrand(
  db: Queryable,
  data: EventData<'store.brand_updated'>,
  occurredAt: string,
): Promise<void> {
  await applyNewestSnapshot(db, SELLER_BRANDS, data.sellerId, occurredAt, {
    handle: data.brand.handle,
    name: data.brand.name,
    logo_url: data.brand.logoUrl,
    accent_colour: data.brand.accentColour,
  });
}

/**
 * The brand buyers of `sellerId` see on checkout pages and receipts: null when none was saved
 * or the seller's plan (as billing last announced it) does not include branding.
 */
export async function findShownBrand(db: Queryable, sellerId: string): Promise<PublicBrand | null> {
  const { rows } = await db.query<SavedBrand>(
    `SELECT ${SAVED_BRAND_COLUMNS}
       FROM seller_brands b LEFT JOIN sellers s ON s.user_id = b.seller_id
      WHERE b.seller_id = $1 AND NOT b.deleted`,
    [sellerId],
  );
  return shownBrand(rows[0]);
}

const SELLER_DOMAINS: ReadModelTable = {
  table: 'seller_domains',
  key: 'seller_id',
  version: 'source_occurred_at',
};

/** Keeps catalog's newest `store.domain_updated` per seller (issue 28: where buyer links go). */
export async function upsertSellerDomain(
  db: Queryable,
  data: EventData<'store.domain_updated'>,
  occurredAt: string,
): Promise<void> {
  await applyNewestSnapshot(db, SELLER_DOMAINS, data.sellerId, occurredAt, {
    host: data.host,
    status: data.status,
  });
}

/**
 * A store's domain as last announced, with the seller's plan: select SELLER_DOMAIN_COLUMNS and
 * `s.plan` (SAVED_BRAND_COLUMNS has it).
 */
export interface SellerDomain {
  domainHost: string | null;
  domainStatus: string | null;
  plan: string | null;
}
/** `d` is seller_domains. */
export const SELLER_DOMAIN_COLUMNS = `d.host AS "domainHost", d.status AS "domainStatus"`;

/**
 * Where a buyer's links lead (issue 28): back to the store's domain the checkout started on
 * while that domain serves the store (verified, and the seller's plan includes a custom
 * domain); otherwise — checked out on Lockdrop, or the domain paused, removed or replaced since
 * — to Lockdrop's own address, which always works.
 */
export function buyerLinkOrigin(
  publicUrl: string,
  storeOrigin: string | null,
  domain: SellerDomain | null | undefined,
): string {
  if (!storeOrigin || !domain?.domainHost) return publicUrl;
  const serving = domain.domainStatus === 'verified' && planById(domain.plan).customDomain;
  return serving && new URL(storeOrigin).hostname === domain.domainHost ? storeOrigin : publicUrl;
}

/** The domain of `sellerId` as last announced, with their plan (null when never announced). */
export async function findSellerDomain(
  db: Queryable,
  sellerId: string,
): Promise<SellerDomain | null> {
  const { rows } = await db.query<SellerDomain>(
    `SELECT ${SELLER_DOMAIN_COLUMNS}, s.plan
       FROM seller_domains d LEFT JOIN sellers s ON s.user_id = d.seller_id
      WHERE d.seller_id = $1 AND NOT d.deleted`,
    [sellerId],
  );
  return rows[0] ?? null;
}

/** A saved brand with the plan it is shown under; select it with SAVED_BRAND_COLUMNS. */
export type SavedBrand = PublicBrand & { plan: string | null };
/** `b` is seller_brands (not deleted), `s` the seller's row in sellers. */
export const SAVED_BRAND_COLUMNS = `b.handle, b.name, b.logo_url AS "logoUrl",
  b.accent_colour AS "accentColour", s.plan`;

/** A shown brand as a buyer's e-mail carries it: the logo's URL absolute (mail has no base URL). */
export function emailBrand(
  brand: PublicBrand | null,
  publicUrl: string,
): { name: string; logoUrl: string | null; accentColour: string | null } | null {
  return (
    brand && {
      name: brand.name,
      logoUrl: brand.logoUrl && `${publicUrl}${brand.logoUrl}`,
      accentColour: brand.accentColour,
    }
  );
}

/** The brand buyers see: none unless one was saved and the plan includes branding. */
export function shownBrand(saved: SavedBrand | null | undefined): PublicBrand | null {
  if (!saved?.handle || !planById(saved.plan).customBranding) return null;
  return {
    handle: saved.handle,
    name: saved.name,
    logoUrl: saved.logoUrl,
    accentColour: saved.accentColour,
  };
}

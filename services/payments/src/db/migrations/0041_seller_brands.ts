import type { Migration } from '@lockdrop/db';

/**
 * Issue 28 (brand): each store's brand as catalog last announced it (`store.brand_updated`), so
 * checkout pages, the provider's hosted page and receipts show the seller's name and logo
 * without asking catalog. The sandbox keeps the customizations it was asked for, as Flutterwave
 * does, to show them on its hosted page.
 */
export const sellerBrands: Migration = {
  id: '0041_seller_brands',
  sql: `
    CREATE TABLE seller_brands (
      seller_id uuid PRIMARY KEY,
      handle text NOT NULL,
      name text NOT NULL,
      logo_url text,
      accent_colour text,
      source_occurred_at timestamptz NOT NULL,
      deleted boolean NOT NULL DEFAULT false
    );
    ALTER TABLE sandbox_payments ADD COLUMN brand_title text, ADD COLUMN brand_logo_url text;
  `,
};

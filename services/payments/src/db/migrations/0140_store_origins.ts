import type { Migration } from '@lockdrop/db';

/**
 * Issue 28 (custom domain): the store domain a checkout started on (`store_origin`, the
 * gateway's word, kept only when the product is that store's), so the receipt's links lead the
 * buyer back there; and each store's domain as catalog last announced it
 * (`store.domain_updated`), so a link is made to the domain only while it serves the store — a
 * link to a paused or removed domain would be dead.
 */
export const storeOrigins: Migration = {
  id: '0140_store_origins',
  sql: `
    ALTER TABLE checkouts ADD COLUMN store_origin text;
    CREATE TABLE seller_domains (
      seller_id uuid PRIMARY KEY,
      host text NOT NULL,
      status text NOT NULL,
      source_occurred_at timestamptz NOT NULL,
      deleted boolean NOT NULL DEFAULT false
    );
  `,
};

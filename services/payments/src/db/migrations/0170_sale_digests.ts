import type { Migration } from '@lockdrop/db';

/**
 * Issue 31: a seller at a flash sale got one "You made a sale" per sale — hundreds a minute, and
 * half the e-mail a burst of payments sent. A seller's first sale is still e-mailed on its own and
 * opens a window; sales recorded while it is open are counted here and sent as one e-mail when it
 * ends. A window that ends with nothing counted closes (the row goes), so the next sale is e-mailed
 * on its own again. One row per seller and mode (test sales are told apart from real ones).
 */
export const saleDigests: Migration = {
  id: '0170_sale_digests',
  sql: `
    CREATE TABLE sale_digests (
      seller_id uuid NOT NULL,
      test_mode boolean NOT NULL,
      window_ends_at timestamptz NOT NULL,
      sales integer NOT NULL DEFAULT 0,
      free_claims integer NOT NULL DEFAULT 0,
      renewals integer NOT NULL DEFAULT 0,
      -- The seller's share by currency, in minor units: {"NGN": 123400}.
      earnings jsonb NOT NULL DEFAULT '{}',
      -- Up to ten of the products sold, for the e-mail to name.
      product_titles jsonb NOT NULL DEFAULT '[]',
      PRIMARY KEY (seller_id, test_mode)
    );
    CREATE INDEX sale_digests_due_idx ON sale_digests (window_ends_at);
  `,
};

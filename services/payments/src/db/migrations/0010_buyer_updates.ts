import type { Migration } from '@lockdrop/db';

/**
 * Whether a buyer still wants a seller's product-update e-mails (issue 13), one row per seller
 * and buyer address from their first update e-mail on. The token is the unsubscribe link's
 * credential; it is stored as is because every later e-mail carries the same link.
 */
export const buyerUpdates: Migration = {
  id: '0010_buyer_updates',
  sql: `
    CREATE TABLE buyer_update_subscriptions (
      seller_id uuid NOT NULL,
      buyer_email text NOT NULL CHECK (buyer_email = lower(buyer_email)),
      token text NOT NULL UNIQUE CHECK (length(token) >= 32),
      -- the product of the latest update e-mail, to name on the unsubscribe page
      product_title text NOT NULL,
      unsubscribed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (seller_id, buyer_email)
    );
    CREATE INDEX purchases_product_paid_idx ON purchases (product_id) WHERE status = 'paid';
  `,
};

import type { Migration } from '@lockdrop/db';

/**
 * Sellers' discount codes, the code and amount each checkout snapshotted, pay-what-you-want
 * minimums in the product read model, and free purchases (a 100% code, or pay what you want at
 * zero): amounts may now be zero, never negative.
 */
export const discounts: Migration = {
  id: '0008_discounts',
  sql: `
    CREATE TABLE discount_codes (
      id uuid PRIMARY KEY,
      seller_id uuid NOT NULL,
      code text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('percent', 'fixed')),
      percent_off integer CHECK (percent_off BETWEEN 1 AND 100),
      amount_off_minor bigint CHECK (amount_off_minor > 0),
      currency text,
      product_ids uuid[],
      starts_at timestamptz,
      ends_at timestamptz,
      max_uses integer CHECK (max_uses > 0),
      max_uses_per_buyer integer CHECK (max_uses_per_buyer > 0),
      active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((kind = 'percent') = (percent_off IS NOT NULL)),
      CHECK ((kind = 'fixed') = (amount_off_minor IS NOT NULL AND currency IS NOT NULL)),
      CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at)
    );
    -- Buyers type codes in any case; one seller cannot have LAUNCH20 twice.
    CREATE UNIQUE INDEX discount_codes_seller_code_idx ON discount_codes (seller_id, upper(code));

    ALTER TABLE checkouts
      ADD COLUMN discount_code_id uuid REFERENCES discount_codes (id) ON DELETE SET NULL,
      ADD COLUMN discount_code text,
      -- In the checkout's currency, like amount_minor.
      ADD COLUMN discount_minor bigint NOT NULL DEFAULT 0 CHECK (discount_minor >= 0),
      -- When the hosted payment page stops taking payment; a checkout holds its code's use until then.
      ADD COLUMN expires_at timestamptz,
      DROP CONSTRAINT checkouts_amount_minor_check,
      ADD CONSTRAINT checkouts_amount_minor_check CHECK (amount_minor >= 0);
    CREATE INDEX checkouts_discount_idx ON checkouts (discount_code_id, status, expires_at)
      WHERE discount_code_id IS NOT NULL;

    ALTER TABLE purchases
      DROP CONSTRAINT purchases_amount_minor_check,
      ADD CONSTRAINT purchases_amount_minor_check CHECK (amount_minor >= 0),
      -- The code as the checkout snapshotted it, for receipts and the seller's sales.
      ADD COLUMN discount_code text,
      ADD COLUMN discount_minor bigint NOT NULL DEFAULT 0 CHECK (discount_minor >= 0);

    ALTER TABLE products ADD COLUMN minimum_price_minor bigint CHECK (minimum_price_minor >= 0);

    ALTER TABLE sandbox_payments ADD COLUMN expires_at timestamptz;
  `,
};

import type { Migration } from '@lockdrop/db';

/**
 * Issue 27, the public API's money resources:
 * - `purchases.updated_at`: every v1 resource carries when it last changed. A trigger keeps it,
 *   so no write path (refund, chargeback, reinstatement) can forget it; a sale starts at `paid_at`.
 * - `subscriptions.test_mode`: a test key sees only test subscriptions. Recorded at the first
 *   charge like a purchase's; older rows take their first purchase's mode (plans: the sandbox's).
 * - Keyset indexes for the seller's pages, newest first, per mode.
 */
export const apiV1Money: Migration = {
  id: '0070_api_v1_money',
  sql: `
    ALTER TABLE purchases ADD COLUMN updated_at timestamptz;
    UPDATE purchases SET updated_at = greatest(paid_at, coalesce(refunded_at, paid_at));
    ALTER TABLE purchases ALTER COLUMN updated_at SET NOT NULL;
    CREATE FUNCTION purchases_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        NEW.updated_at := coalesce(NEW.updated_at, NEW.paid_at);
      ELSIF NEW IS DISTINCT FROM OLD THEN
        NEW.updated_at := greatest(now(), OLD.updated_at);
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER purchases_touch BEFORE INSERT OR UPDATE ON purchases
      FOR EACH ROW EXECUTE FUNCTION purchases_touch();

    ALTER TABLE subscriptions ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
    UPDATE subscriptions s SET test_mode = p.test_mode
      FROM purchases p WHERE p.checkout_id = s.first_checkout_id;
    UPDATE subscriptions SET test_mode = true WHERE kind = 'plan' AND provider = 'sandbox';

    CREATE INDEX purchases_seller_page_idx ON purchases (seller_id, test_mode, paid_at DESC, id DESC);
    CREATE INDEX subscriptions_seller_page_idx ON subscriptions (seller_id, test_mode, created_at DESC, id DESC)
      WHERE kind = 'product';
    CREATE INDEX payouts_seller_page_idx ON payouts (seller_id, test_mode, created_at DESC, id DESC);
  `,
};

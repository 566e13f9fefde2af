import type { Migration } from '@lockdrop/db';

/**
 * Issue 30 item 10, free claims are not an e-mail relay:
 * - `awaiting_email`: a checkout that costs nothing, claimed by an address that has not proven
 *   itself, waits for the buyer to open the confirmation link before it becomes a purchase.
 * - `free_claims`: how each free claim's address proved itself (an earlier confirmed purchase, a
 *   verified account, or the e-mailed link) and when; pending while `confirmed_at` is null.
 *   "Tell my buyers" and the "proven address" rule read it: a free purchase without a confirmed
 *   row (every claim made before this migration) never proved its address.
 * - `free_claim_links`: the e-mailed links of a pending claim, by the sha256 of their secret (a
 *   database leak yields no usable link); the newest one's time is the resend cool-down.
 * - Indexes for the per-product and per-seller free-claim limits.
 */
export const freeClaims: Migration = {
  id: '0090_free_claims',
  sql: `
    ALTER TABLE checkouts DROP CONSTRAINT checkouts_status_check;
    ALTER TABLE checkouts ADD CONSTRAINT checkouts_status_check
      CHECK (status IN ('creating', 'open', 'failed', 'paid', 'not_started', 'awaiting_email'));

    CREATE TABLE free_claims (
      checkout_id uuid PRIMARY KEY REFERENCES checkouts (id),
      product_id uuid NOT NULL,
      buyer_email text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      confirmed_at timestamptz,
      proof text CHECK (proof IN ('earlier_purchase', 'verified_account', 'email_link')),
      CHECK ((confirmed_at IS NULL) = (proof IS NULL))
    );
    CREATE INDEX free_claims_pending_idx ON free_claims (product_id, lower(buyer_email))
      WHERE confirmed_at IS NULL;

    CREATE TABLE free_claim_links (
      token_hash text PRIMARY KEY,
      checkout_id uuid NOT NULL REFERENCES free_claims (checkout_id),
      created_at timestamptz NOT NULL
    );
    CREATE INDEX free_claim_links_claim_idx ON free_claim_links (checkout_id, created_at DESC);

    CREATE INDEX checkouts_free_product_idx ON checkouts (product_id, created_at) WHERE provider = 'free';
    CREATE INDEX checkouts_free_seller_idx ON checkouts (seller_id, created_at) WHERE provider = 'free';
  `,
};

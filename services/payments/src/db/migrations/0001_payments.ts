import type { Migration } from '@lockdrop/db';

/** Read models, checkouts, purchases, the provider event store and the append-only ledger. */
export const paymentsSchema: Migration = {
  id: '0001_payments',
  sql: `
    -- Read models fed by other services' events: checkout never calls them synchronously.
    CREATE TABLE products (
      id uuid PRIMARY KEY,
      owner_id uuid NOT NULL,
      title text NOT NULL,
      price_minor bigint NOT NULL,
      currency text NOT NULL,
      pricing_type text NOT NULL,
      status text NOT NULL,
      file_id uuid,
      file_name text,
      file_size_bytes bigint,
      deleted boolean NOT NULL DEFAULT false,
      source_occurred_at timestamptz NOT NULL
    );
    CREATE TABLE sellers (
      user_id uuid PRIMARY KEY,
      plan text NOT NULL,
      source_occurred_at timestamptz NOT NULL
    );
    CREATE TABLE exchange_rates (
      from_currency text NOT NULL,
      to_currency text NOT NULL,
      rate text NOT NULL,
      source_occurred_at timestamptz NOT NULL,
      PRIMARY KEY (from_currency, to_currency)
    );

    CREATE TABLE checkouts (
      id uuid PRIMARY KEY,
      tx_ref text NOT NULL UNIQUE,
      provider text NOT NULL,
      status text NOT NULL CHECK (status IN ('creating', 'open', 'failed', 'paid', 'not_started')),
      product_id uuid NOT NULL,
      seller_id uuid NOT NULL,
      product_title text NOT NULL,
      file_id uuid,
      file_name text,
      buyer_email text NOT NULL,
      price_minor bigint NOT NULL,
      price_currency text NOT NULL,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      fx_rate text,
      plan text NOT NULL,
      platform_fee_bps integer NOT NULL,
      platform_fee_minor bigint NOT NULL CHECK (platform_fee_minor >= 0),
      link text,
      browser_key_hash text,
      correlation_id text NOT NULL,
      created_at timestamptz NOT NULL,
      last_verified_at timestamptz
    );
    CREATE INDEX checkouts_buyer_idx ON checkouts (lower(buyer_email), created_at);
    CREATE INDEX checkouts_unconfirmed_idx ON checkouts (created_at) WHERE status IN ('open', 'failed');

    CREATE TABLE purchases (
      id uuid PRIMARY KEY,
      checkout_id uuid NOT NULL UNIQUE REFERENCES checkouts (id),
      tx_ref text NOT NULL UNIQUE,
      product_id uuid NOT NULL,
      seller_id uuid NOT NULL,
      buyer_email text NOT NULL,
      product_title text NOT NULL,
      file_id uuid,
      file_name text,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      fee_platform_minor bigint NOT NULL CHECK (fee_platform_minor >= 0),
      fee_processor_minor bigint NOT NULL CHECK (fee_processor_minor >= 0),
      seller_earnings_minor bigint NOT NULL CHECK (seller_earnings_minor >= 0),
      provider text NOT NULL,
      provider_transaction_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('paid', 'refunding', 'refunded')),
      paid_at timestamptz NOT NULL,
      refunded_at timestamptz,
      refund_reference text,
      refunded_by uuid,
      receipt_token_hash text NOT NULL,
      CHECK (amount_minor = fee_platform_minor + fee_processor_minor + seller_earnings_minor),
      UNIQUE (provider, provider_transaction_id)
    );
    CREATE INDEX purchases_buyer_idx ON purchases (lower(buyer_email), paid_at DESC);
    CREATE INDEX purchases_seller_idx ON purchases (seller_id, paid_at DESC);

    -- Every authenticated provider notification, raw, once per (provider, event key).
    CREATE TABLE provider_events (
      id bigserial PRIMARY KEY,
      provider text NOT NULL,
      event_key text NOT NULL,
      event_type text,
      transaction_id text,
      tx_ref text,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'received'
        CHECK (status IN ('received', 'parked', 'retry', 'processed', 'ignored')),
      outcome text,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      next_attempt_at timestamptz,
      received_at timestamptz NOT NULL DEFAULT now(),
      processed_at timestamptz,
      UNIQUE (provider, event_key)
    );
    CREATE INDEX provider_events_due_idx ON provider_events (next_attempt_at) WHERE status IN ('parked', 'retry');

    -- What the provider reported that did not match the checkout: never unlocks, kept for support.
    CREATE TABLE payment_mismatches (
      id bigserial PRIMARY KEY,
      checkout_id uuid NOT NULL REFERENCES checkouts (id),
      provider text NOT NULL,
      transaction_id text NOT NULL,
      reasons text[] NOT NULL,
      expected jsonb NOT NULL,
      reported jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (provider, transaction_id, reasons)
    );

    -- Double entry: debits positive, credits negative; every journal sums to zero (checked at commit).
    CREATE TABLE ledger_entries (
      id bigserial PRIMARY KEY,
      journal_id uuid NOT NULL,
      purchase_id uuid NOT NULL REFERENCES purchases (id),
      kind text NOT NULL CHECK (kind IN ('payment', 'refund')),
      account text NOT NULL CHECK (account IN ('buyer_payments', 'seller_earnings', 'platform_fees', 'processor_fees')),
      seller_id uuid,
      amount_minor bigint NOT NULL,
      currency text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (purchase_id, kind, account),
      CHECK ((account = 'seller_earnings') = (seller_id IS NOT NULL))
    );
    CREATE INDEX ledger_entries_seller_idx ON ledger_entries (seller_id, currency) WHERE seller_id IS NOT NULL;

    CREATE FUNCTION ledger_journal_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT sum(amount_minor) <> 0 OR count(DISTINCT currency) <> 1
            FROM ledger_entries WHERE journal_id = NEW.journal_id) THEN
        RAISE EXCEPTION 'ledger journal % is not balanced in one currency', NEW.journal_id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER ledger_journal_balanced AFTER INSERT ON ledger_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journal_balanced();

    CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'ledger entries are append-only; post a reversing journal instead';
    END $$;
    CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

    -- The sandbox provider's own state, as a real provider would keep it on its side.
    CREATE SEQUENCE sandbox_transaction_ids START 7000001;
    CREATE TABLE sandbox_payments (
      tx_ref text PRIMARY KEY,
      transaction_id bigint UNIQUE,
      amount_minor bigint NOT NULL,
      currency text NOT NULL,
      buyer_email text NOT NULL,
      title text NOT NULL,
      redirect_url text NOT NULL,
      status text NOT NULL CHECK (status IN ('initiated', 'successful', 'failed', 'cancelled')),
      app_fee_minor bigint,
      refunded_minor bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    );
  `,
};

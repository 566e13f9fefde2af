import type { Migration } from '@lockdrop/db';

/**
 * Payout destinations (secrets sealed with AES-256-GCM), payouts, and the ledger accounts that
 * carry a seller's money from a sale to their bank: pending (`seller_earnings`) → available →
 * in transit → sent. Journals now belong to a purchase or to a payout.
 */
export const payouts: Migration = {
  id: '0004_payouts',
  sql: `
    ALTER TABLE purchases ADD COLUMN earnings_released_at timestamptz;
    CREATE INDEX purchases_unreleased_idx ON purchases (paid_at)
      WHERE status = 'paid' AND earnings_released_at IS NULL;

    -- A destination is never edited: a change replaces the row, so every payout keeps the
    -- destination it was sent to.
    CREATE TABLE payout_destinations (
      id uuid PRIMARY KEY,
      seller_id uuid NOT NULL,
      method text NOT NULL CHECK (method IN ('bank', 'payoneer', 'wise')),
      bank_code text,
      bank_name text,
      account_name text,
      sealed_secret text NOT NULL,
      label text NOT NULL,
      account_number_masked text,
      email_masked text,
      account_id_masked text,
      notify_email text NOT NULL,
      created_at timestamptz NOT NULL,
      replaced_at timestamptz,
      payouts_held_until timestamptz
    );
    CREATE UNIQUE INDEX payout_destinations_current_idx ON payout_destinations (seller_id)
      WHERE replaced_at IS NULL;

    CREATE TABLE payouts (
      id uuid PRIMARY KEY,
      seller_id uuid NOT NULL,
      destination_id uuid NOT NULL REFERENCES payout_destinations (id),
      method text NOT NULL,
      destination_label text NOT NULL,
      status text NOT NULL CHECK (status IN ('created', 'submitted', 'paid', 'failed')),
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      source_amount_minor bigint NOT NULL CHECK (source_amount_minor > 0),
      source_currency text NOT NULL,
      fx_rate text,
      trigger text NOT NULL CHECK (trigger IN ('scheduled', 'withdraw')),
      run_id text NOT NULL,
      provider text,
      provider_transfer_id text,
      failure_reason text,
      created_at timestamptz NOT NULL,
      submitted_at timestamptz,
      completed_at timestamptz,
      -- One payout per seller per currency per run, however many workers deliver the run.
      UNIQUE (run_id, seller_id, source_currency)
    );
    CREATE INDEX payouts_seller_idx ON payouts (seller_id, created_at DESC);

    ALTER TABLE ledger_entries ALTER COLUMN purchase_id DROP NOT NULL;
    ALTER TABLE ledger_entries ADD COLUMN payout_id uuid REFERENCES payouts (id);
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_owner_check
      CHECK ((purchase_id IS NULL) <> (payout_id IS NULL));
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN
      ('payment', 'refund', 'release', 'payout', 'payout_paid', 'payout_failed'));
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account IN
      ('buyer_payments', 'seller_earnings', 'seller_available', 'seller_in_transit',
       'platform_fees', 'processor_fees', 'payouts_sent', 'fx_conversion'));
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_seller_check CHECK (
      (account IN ('seller_earnings', 'seller_available', 'seller_in_transit')) = (seller_id IS NOT NULL));
    -- A payout converted at payout time has one journal per currency, both of kind 'payout'.
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_payout_unique
      UNIQUE (payout_id, kind, account, currency);
    CREATE INDEX ledger_entries_payout_idx ON ledger_entries (payout_id) WHERE payout_id IS NOT NULL;
  `,
};

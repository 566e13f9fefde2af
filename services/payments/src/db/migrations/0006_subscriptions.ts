import type { Migration } from '@lockdrop/db';

/**
 * Recurring billing (issue 10): subscriptions to products and sellers' own plans, one row per
 * charge of a period, and the ledger accounts for what sellers pay the platform.
 */
export const subscriptions: Migration = {
  id: '0006_subscriptions',
  sql: `
    -- A checkout may buy a product (once or to subscribe), a plan for the signed-in seller, or
    -- pay a past-due period of an existing subscription.
    ALTER TABLE checkouts ADD COLUMN kind text NOT NULL DEFAULT 'product'
      CHECK (kind IN ('product', 'plan'));
    ALTER TABLE checkouts ADD COLUMN billing_interval text CHECK (billing_interval IN ('monthly', 'yearly'));
    ALTER TABLE checkouts ADD COLUMN user_id uuid;
    ALTER TABLE checkouts ADD COLUMN plan_bought text;
    -- Set on a checkout that pays a period of an existing subscription (a renewal, a past-due
    -- period paid again, a plan change): the period it pays starts here.
    ALTER TABLE checkouts ADD COLUMN subscription_id uuid;
    ALTER TABLE checkouts ADD COLUMN renews_period_start timestamptz;
    ALTER TABLE checkouts ALTER COLUMN product_id DROP NOT NULL;
    ALTER TABLE checkouts ALTER COLUMN seller_id DROP NOT NULL;
    ALTER TABLE checkouts ADD CONSTRAINT checkouts_buys_check CHECK (
      (kind = 'product' AND product_id IS NOT NULL AND seller_id IS NOT NULL)
      OR (kind = 'plan' AND user_id IS NOT NULL AND plan_bought IS NOT NULL AND billing_interval IS NOT NULL));

    -- The products read model keeps the interval of a recurring price (catalog's events carry it).
    ALTER TABLE products ADD COLUMN billing_interval text CHECK (billing_interval IN ('monthly', 'yearly'));

    CREATE TABLE subscriptions (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('product', 'plan')),
      provider text NOT NULL,
      product_id uuid,
      seller_id uuid,
      user_id uuid,
      plan text,
      title text NOT NULL,
      file_id uuid,
      file_name text,
      buyer_email text NOT NULL,
      browser_key_hash text,
      billing_interval text NOT NULL CHECK (billing_interval IN ('monthly', 'yearly')),
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'past_due', 'expired')),
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      current_period_start timestamptz NOT NULL,
      current_period_end timestamptz NOT NULL,
      grace_until timestamptz,
      ended_at timestamptz,
      ended_reason text,
      provider_plan_id text,
      provider_subscription_id text,
      renewal_attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      -- The period end the 7-day reminder of a yearly renewal was sent for.
      reminded_for timestamptz,
      -- Plan subscriptions: a downgrade (or interval change) that takes effect at period end.
      pending_plan text,
      pending_interval text CHECK (pending_interval IN ('monthly', 'yearly')),
      revision integer NOT NULL DEFAULT 1,
      first_checkout_id uuid NOT NULL UNIQUE REFERENCES checkouts (id),
      correlation_id text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((kind = 'product') = (product_id IS NOT NULL AND seller_id IS NOT NULL)),
      CHECK ((kind = 'plan') = (user_id IS NOT NULL AND plan IS NOT NULL))
    );
    CREATE INDEX subscriptions_buyer_idx ON subscriptions (lower(buyer_email), created_at DESC);
    CREATE INDEX subscriptions_seller_idx ON subscriptions (seller_id, status) WHERE kind = 'product';
    CREATE INDEX subscriptions_due_idx ON subscriptions (current_period_end) WHERE status <> 'expired';
    -- A seller has at most one live plan subscription.
    CREATE UNIQUE INDEX subscriptions_one_plan_idx ON subscriptions (user_id)
      WHERE kind = 'plan' AND status <> 'expired';

    -- One row per paid period. A provider transaction pays one period once, and a period is paid
    -- once, so duplicate or reordered renewal notifications cannot credit twice.
    CREATE TABLE subscription_charges (
      id uuid PRIMARY KEY,
      subscription_id uuid NOT NULL REFERENCES subscriptions (id),
      provider text NOT NULL,
      provider_transaction_id text NOT NULL,
      tx_ref text NOT NULL,
      period_start timestamptz NOT NULL,
      period_end timestamptz NOT NULL,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      processor_fee_minor bigint NOT NULL,
      -- Product subscriptions: the purchase this charge made (receipt, entitlement, seller's sale).
      purchase_id uuid REFERENCES purchases (id),
      refunded_minor bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      UNIQUE (provider, provider_transaction_id),
      UNIQUE (subscription_id, period_start)
    );

    ALTER TABLE purchases ADD COLUMN subscription_id uuid REFERENCES subscriptions (id);
    -- A later charge of a subscription (not its first payment): listed to the seller as a renewal.
    ALTER TABLE purchases ADD COLUMN renewal boolean NOT NULL DEFAULT false;
    CREATE INDEX purchases_subscription_idx ON purchases (subscription_id) WHERE subscription_id IS NOT NULL;

    -- Flutterwave needs a payment plan per amount, currency and interval (payments-contract §7).
    CREATE TABLE provider_plans (
      provider text NOT NULL,
      billing_interval text NOT NULL,
      amount_minor bigint NOT NULL,
      currency text NOT NULL,
      provider_plan_id text NOT NULL,
      PRIMARY KEY (provider, billing_interval, amount_minor, currency)
    );

    -- Plan charges are the platform's revenue, not a seller's earnings.
    ALTER TABLE ledger_entries ADD COLUMN charge_id uuid REFERENCES subscription_charges (id);
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_owner_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_owner_check CHECK (
      (purchase_id IS NOT NULL)::int + (payout_id IS NOT NULL)::int + (charge_id IS NOT NULL)::int = 1);
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN
      ('payment', 'refund', 'release', 'payout', 'payout_paid', 'payout_failed', 'plan_payment', 'plan_refund'));
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account IN
      ('buyer_payments', 'seller_earnings', 'seller_available', 'seller_in_transit',
       'platform_fees', 'processor_fees', 'payouts_sent', 'fx_conversion', 'plan_revenue'));
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_charge_unique UNIQUE (charge_id, kind, account);

    -- The sandbox provider's side of a subscription: a "card on file" it can charge again.
    ALTER TABLE sandbox_payments ADD COLUMN billing_interval text;
    ALTER TABLE sandbox_payments ADD COLUMN subscription_token text UNIQUE;
    -- Set by the sandbox page's "Fail next renewal": the next charge of this token is declined.
    ALTER TABLE sandbox_payments ADD COLUMN fail_next_charge boolean NOT NULL DEFAULT false;
  `,
};

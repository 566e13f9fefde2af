import type { Migration } from '@lockdrop/db';

/** Forward-only, in id order; never edit one that has shipped — add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_products',
    sql: `
      -- Who owns each product: every query is filtered to the signed-in seller's products.
      -- Deleted products stay (their sales are still the seller's), marked so lists can say so.
      CREATE TABLE products (
        product_id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        title text NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        applied_at timestamptz NOT NULL
      );
      CREATE INDEX products_owner_idx ON products (owner_id);
    `,
  },
  {
    id: '0002_raw_events',
    sql: `
      -- Every event the rollups were computed from, so a rollup can be rebuilt or audited.
      CREATE TABLE raw_events (
        event_id uuid PRIMARY KEY,
        type text NOT NULL,
        product_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        data jsonb NOT NULL
      );
      CREATE INDEX raw_events_product_idx ON raw_events (product_id, occurred_at);
    `,
  },
  {
    id: '0003_rollups',
    sql: `
      CREATE TABLE product_daily (
        product_id uuid NOT NULL,
        day date NOT NULL,
        views integer NOT NULL DEFAULT 0,
        checkouts_started integer NOT NULL DEFAULT 0,
        sales integer NOT NULL DEFAULT 0,
        refunds integer NOT NULL DEFAULT 0,
        downloads integer NOT NULL DEFAULT 0,
        PRIMARY KEY (product_id, day)
      );
      -- Money per currency, never mixed: earnings on the day paid, reversals on the day refunded.
      CREATE TABLE product_daily_revenue (
        product_id uuid NOT NULL,
        day date NOT NULL,
        currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        gross_minor bigint NOT NULL DEFAULT 0,
        earnings_minor bigint NOT NULL DEFAULT 0,
        refunded_earnings_minor bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (product_id, day, currency)
      );
      -- One row per product, visitor and day: distinct visitors over any period, and view de-duplication.
      CREATE TABLE product_visitors (
        product_id uuid NOT NULL,
        visitor_id text NOT NULL,
        day date NOT NULL,
        PRIMARY KEY (product_id, visitor_id, day)
      );
      -- A purchase counts once however many events mention it; refunds may arrive before the payment.
      CREATE TABLE sales (
        purchase_id uuid PRIMARY KEY,
        product_id uuid NOT NULL,
        currency text NOT NULL,
        earnings_minor bigint NOT NULL,
        paid_at timestamptz NOT NULL
      );
      CREATE TABLE refunds (
        purchase_id uuid PRIMARY KEY,
        product_id uuid NOT NULL,
        refunded_at timestamptz NOT NULL
      );
    `,
  },
  {
    // Issue 29, item 8: sandbox and test-key sales are no revenue. They are kept apart, per
    // product, day and currency, so the dashboard can show them as test sales and never add
    // them to sales, revenue or the unlock rate. Sales recorded before this are taken as live.
    id: '0050_test_sales',
    sql: `
      ALTER TABLE sales ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
      CREATE TABLE product_daily_test_sales (
        product_id uuid NOT NULL,
        day date NOT NULL,
        currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        sales integer NOT NULL DEFAULT 0,
        refunds integer NOT NULL DEFAULT 0,
        gross_minor bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (product_id, day, currency)
      );
    `,
  },
];

import type { Migration } from '@lockdrop/db';
import { mailOutboxMigrations } from '@lockdrop/mailer';

/** Forward-only, in id order; never edit one that has shipped — add the next. */
export const migrations: Migration[] = [
  // The mail outbox (libs/mailer): a paused domain's notice is queued with the pause (issue 28).
  ...mailOutboxMigrations,
  {
    id: '0001_products',
    sql: `
      CREATE TABLE products (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
        description text CHECK (length(description) <= 5000),
        price_minor bigint NOT NULL CHECK (price_minor > 0),
        currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        pricing_type text NOT NULL CHECK (pricing_type IN ('one_time', 'recurring')),
        pricing_interval text CHECK (pricing_interval IN ('monthly', 'yearly')),
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
        file_id uuid NOT NULL,
        file_name text NOT NULL,
        file_size_bytes bigint NOT NULL CHECK (file_size_bytes >= 0),
        file_kind text NOT NULL CHECK (file_kind IN ('image', 'pdf', 'video', 'audio', 'document')),
        preview_enabled boolean NOT NULL,
        preview_blur_percentage smallint NOT NULL DEFAULT 50
          CHECK (preview_blur_percentage BETWEEN 0 AND 100 AND preview_blur_percentage % 5 = 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        -- Soft delete: purchases elsewhere refer to the id, and the upload quota counts it.
        deleted_at timestamptz,
        CHECK ((pricing_type = 'recurring') = (pricing_interval IS NOT NULL))
      );
      CREATE INDEX products_owner_created_idx ON products (owner_id, created_at DESC);
    `,
  },
  {
    id: '0002_platform_settings',
    sql: `
      CREATE TABLE platform_settings (
        setting_key text PRIMARY KEY,
        setting_value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- The spec's six plus the African currencies our payment provider settles in.
      INSERT INTO platform_settings (setting_key, setting_value) VALUES (
        'supported_currencies',
        '["USD", "EUR", "GBP", "NGN", "CAD", "AUD", "GHS", "KES", "ZAR", "UGX", "XOF"]'
      );
    `,
  },
  {
    id: '0003_exchange_rates',
    sql: `
      -- Filled only by fx.rates.updated (the worker's rate job): no invented seed rates.
      CREATE TABLE exchange_rates (
        from_currency text NOT NULL CHECK (from_currency ~ '^[A-Z]{3}$'),
        to_currency text NOT NULL CHECK (to_currency ~ '^[A-Z]{3}$'),
        rate numeric NOT NULL CHECK (rate > 0),
        source text NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (from_currency, to_currency)
      );
    `,
  },
  {
    id: '0004_product_views',
    sql: `
      -- One row per product, visitor and UTC day: the unique key is the view de-duplication.
      CREATE TABLE product_views (
        product_id uuid NOT NULL REFERENCES products (id),
        visitor_id text NOT NULL,
        day date NOT NULL,
        referrer text,
        viewed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (product_id, visitor_id, day)
      );
    `,
  },
  {
    id: '0005_pay_what_you_want',
    sql: `
      -- Pay what you want: the least a buyer may pay (price_minor is then the suggestion).
      ALTER TABLE products
        ADD COLUMN minimum_price_minor bigint CHECK (minimum_price_minor >= 0),
        ADD CONSTRAINT products_minimum_price_check CHECK (
          minimum_price_minor IS NULL OR (minimum_price_minor <= price_minor AND pricing_type = 'one_time'));
    `,
  },
  {
    id: '0006_stamp_pdfs',
    sql: `
      -- Delivery stamps each buyer's copy of a PDF file with their e-mail.
      ALTER TABLE products ADD COLUMN stamp_pdfs boolean NOT NULL DEFAULT false;
    `,
  },
  {
    id: '0007_product_files',
    sql: `
      -- Every file buyers get, in the seller's order: [{ fileId, fileName, sizeBytes, kind }].
      -- file_id (and its name, size, kind) stays the preview source, always one of them.
      ALTER TABLE products ADD COLUMN files jsonb, ADD COLUMN buyers_told_at timestamptz;
      UPDATE products SET files = jsonb_build_array(jsonb_build_object(
        'fileId', file_id, 'fileName', file_name, 'sizeBytes', file_size_bytes, 'kind', file_kind));
      ALTER TABLE products ALTER COLUMN files SET NOT NULL,
        ADD CONSTRAINT products_files_check
          CHECK (jsonb_typeof(files) = 'array' AND jsonb_array_length(files) BETWEEN 1 AND 20);
    `,
  },
  {
    id: '0040_store_brands',
    sql: `
      -- Each seller's plan as billing last announced it (plan.changed): the brand shows to buyers
      -- only while the plan includes branding, whichever order the events arrive in.
      CREATE TABLE seller_plans (
        user_id uuid PRIMARY KEY,
        plan text NOT NULL,
        changed_at timestamptz NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      );
      -- A store's brand (a seller alone is a store of one). plan_at_save is the plan the seller's
      -- token named when they saved, used until billing announces one.
      CREATE TABLE store_brands (
        seller_id uuid PRIMARY KEY,
        handle text NOT NULL UNIQUE CHECK (handle = lower(handle)),
        name text NOT NULL,
        logo_id text,
        accent_colour text CHECK (accent_colour ~ '^#[0-9a-f]{6}$'),
        plan_at_save text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: '0120_seller_names',
    sql: `
      -- Each seller's full name as identity last announced it (user.signed_up, profile.updated),
      -- shown on their product pages when they have no store name (issue 29). Removed with the
      -- account (user.deleted). changed_at keeps the newest when events arrive out of order.
      CREATE TABLE seller_names (
        seller_id uuid PRIMARY KEY,
        full_name text NOT NULL,
        changed_at timestamptz NOT NULL
      );
    `,
  },
  {
    id: '0130_store_domains',
    sql: `
      -- A store's custom domain (issue 28): one per store, and a host belongs to one store.
      -- token is the TXT value proving ownership; seller_email is the owner's address when they
      -- added or last verified it (a paused domain's notice goes there); plan_at_save is the
      -- token's plan, used until billing announces one (seller_plans). failed_checks counts
      -- definite failures in a row of a verified domain; it pauses at the configured number.
      CREATE TABLE store_domains (
        seller_id uuid PRIMARY KEY,
        host text NOT NULL UNIQUE CHECK (host = lower(host)),
        token text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'paused')),
        seller_email text NOT NULL,
        plan_at_save text NOT NULL,
        ownership_check text CHECK (ownership_check IN ('ok', 'missing', 'wrong')),
        routing_check text CHECK (routing_check IN ('ok', 'missing', 'wrong')),
        check_message text,
        last_checked_at timestamptz,
        verified_at timestamptz,
        failed_checks integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX store_domains_checked_idx ON store_domains (last_checked_at NULLS FIRST);
    `,
  },
];

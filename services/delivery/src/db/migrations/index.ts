import type { Migration } from '@lockdrop/db';

/** Forward-only, in id order; never edit one that has shipped — add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_files',
    sql: `
      CREATE TABLE files (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        storage_key text NOT NULL UNIQUE,
        file_name text NOT NULL,
        size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
        content_type text NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        kind text NOT NULL CHECK (kind IN ('image', 'pdf', 'video', 'audio', 'document')),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX files_owner_idx ON files (owner_id, created_at DESC);

      -- Uploads counted per calendar month (UTC); deleting a file does not give the upload back.
      CREATE TABLE monthly_uploads (
        owner_id uuid NOT NULL,
        month date NOT NULL,
        uploads integer NOT NULL CHECK (uploads >= 0),
        PRIMARY KEY (owner_id, month)
      );
    `,
  },
  {
    id: '0002_products_and_previews',
    sql: `
      -- What catalog's product events told us; applied_at orders snapshots that arrive out of order.
      CREATE TABLE products (
        product_id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        file_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'published')),
        preview_enabled boolean NOT NULL,
        blur_percentage integer NOT NULL CHECK (blur_percentage BETWEEN 0 AND 100),
        deleted boolean NOT NULL DEFAULT false,
        applied_at timestamptz NOT NULL
      );
      CREATE INDEX products_file_idx ON products (file_id) WHERE NOT deleted;

      -- One rendered preview per product. revision grows with every change that needs a new render;
      -- a render result is kept only if the revision it was made for is still current.
      CREATE TABLE previews (
        product_id uuid PRIMARY KEY,
        revision integer NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'ready', 'failed', 'disabled')),
        file_id uuid NOT NULL,
        blur_percentage integer NOT NULL,
        kind text CHECK (kind IN ('image', 'pdf', 'video', 'audio', 'document')),
        object_key text,
        content_type text,
        etag text,
        width integer,
        height integer,
        attempts integer NOT NULL DEFAULT 0,
        lease_until timestamptz,
        last_error text,
        -- of the product event that asked for this revision, carried onto file.processed
        correlation_id text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX previews_pending_idx ON previews (updated_at) WHERE status = 'pending';
    `,
  },
  {
    id: '0003_entitlements_and_downloads',
    sql: `
      -- One row per purchase, from purchase.paid and purchase.refunded in whichever order they
      -- arrive: a refund seen first leaves a revoked row without paid_at, and the payment that
      -- follows fills it in without ever clearing revoked_at.
      CREATE TABLE entitlements (
        purchase_id uuid PRIMARY KEY,
        product_id uuid NOT NULL,
        seller_id uuid NOT NULL,
        -- The file snapshotted at checkout; null when the event named none (the product's current file is used).
        file_id uuid,
        file_name text,
        product_title text,
        buyer_email text NOT NULL CHECK (buyer_email = lower(buyer_email)),
        buyer_browser_key_hash text CHECK (buyer_browser_key_hash ~ '^[0-9a-f]{64}$'),
        receipt_token_hash text UNIQUE CHECK (receipt_token_hash ~ '^[0-9a-f]{64}$'),
        paid_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX entitlements_buyer_idx ON entitlements (buyer_email, product_id);
      CREATE INDEX entitlements_browser_idx ON entitlements (buyer_browser_key_hash, product_id)
        WHERE buyer_browser_key_hash IS NOT NULL;
      CREATE INDEX entitlements_file_idx ON entitlements (file_id) WHERE revoked_at IS NULL;

      -- One row per download link handed out; the token carries only the id and the expiry.
      CREATE TABLE download_grants (
        id uuid PRIMARY KEY,
        purchase_id uuid NOT NULL REFERENCES entitlements (purchase_id),
        file_id uuid NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX download_grants_purchase_idx ON download_grants (purchase_id, created_at DESC);

      -- Responses that delivered a file to its last byte (each also emitted download.completed).
      CREATE TABLE downloads (
        id uuid PRIMARY KEY,
        grant_id uuid NOT NULL REFERENCES download_grants (id),
        purchase_id uuid NOT NULL,
        file_id uuid NOT NULL,
        first_byte bigint NOT NULL,
        bytes_sent bigint NOT NULL,
        completed_at timestamptz NOT NULL
      );
      CREATE INDEX downloads_purchase_idx ON downloads (purchase_id);

      -- Account-free access from the receipt e-mail: the ld_receipt cookie's hash, per purchase.
      CREATE TABLE receipt_sessions (
        key_hash text NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        purchase_id uuid NOT NULL REFERENCES entitlements (purchase_id),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (key_hash, purchase_id)
      );
    `,
  },
  {
    id: '0004_entitlement_refund_hold',
    sql: `
      -- The refund attempt that suspended this purchase's downloads before payments asked the
      -- provider for the money back; lifted only by that attempt's purchase.refund_failed.
      ALTER TABLE entitlements ADD COLUMN refund_hold uuid;
    `,
  },
  {
    id: '0005_subscription_access',
    sql: `
      -- A purchase that is one charge of a product subscription is usable only while the
      -- subscription grants access. Payments decides until when (accessUntil in each
      -- subscription snapshot); this keeps the newest snapshot by revision, whichever order the
      -- events arrive in, and the time itself ends access even before the expiry event lands.
      ALTER TABLE entitlements ADD COLUMN subscription_id uuid;
      CREATE INDEX entitlements_subscription_idx ON entitlements (subscription_id) WHERE subscription_id IS NOT NULL;
      CREATE TABLE subscription_access (
        subscription_id uuid PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('active', 'past_due', 'expired')),
        access_until timestamptz NOT NULL,
        revision integer NOT NULL
      );
    `,
  },
  {
    id: '0006_seller_plans',
    sql: `
      -- Each seller's plan as billing last announced it (plan.changed): upload limits follow a
      -- paid plan at once, not when the seller's access token is next renewed.
      CREATE TABLE seller_plans (
        user_id uuid PRIMARY KEY,
        plan text NOT NULL,
        changed_at timestamptz NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      );
    `,
  },
  {
    id: '0007_stamped_pdfs',
    sql: `
      ALTER TABLE products ADD COLUMN stamp_pdfs boolean NOT NULL DEFAULT false;
      -- Whether a PDF can be stamped, learned the first time it is tried; null until then.
      ALTER TABLE files ADD COLUMN pdf_stamp text
        CHECK (pdf_stamp IN ('available', 'encrypted', 'malformed', 'too_large'));
      -- Each buyer's stamped copy of a file, made on their first download. A changed file is a
      -- new file id, so its copies are made afresh.
      CREATE TABLE stamped_copies (
        file_id uuid NOT NULL,
        buyer_email text NOT NULL CHECK (buyer_email = lower(buyer_email)),
        storage_key text NOT NULL UNIQUE,
        size_bytes bigint NOT NULL,
        sha256 text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (file_id, buyer_email)
      );
    `,
  },
  {
    id: '0008_product_files',
    sql: `
      -- Every file a product's buyers get, in the seller's order; file_id stays the preview source.
      -- A deletion's tombstone keeps them: buyers keep their downloads after the product is gone.
      ALTER TABLE products ADD COLUMN file_ids uuid[] NOT NULL DEFAULT '{}';
      UPDATE products SET file_ids = ARRAY[file_id]
        WHERE file_id <> '00000000-0000-0000-0000-000000000000';
      -- Which products hold a file: live ones keep it from deletion, deleted ones for their buyers.
      CREATE INDEX products_file_ids_idx ON products USING gin (file_ids);
      DROP INDEX products_file_idx;
      -- The buyers of a deleted product who still hold one of its files.
      CREATE INDEX entitlements_product_idx ON entitlements (product_id);
      -- A ZIP link stands for every file of the purchase, so it names none.
      ALTER TABLE download_grants ALTER COLUMN file_id DROP NOT NULL;
    `,
  },
  {
    id: '0009_stamped_copies_bounded',
    sql: `
      -- Stamped copies are a cache of what can be made again from the original: past
      -- STAMPED_COPIES_MAX_BYTES the least recently served ones go.
      ALTER TABLE stamped_copies ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now();
      UPDATE stamped_copies SET last_used_at = created_at;
      CREATE INDEX stamped_copies_last_used_idx ON stamped_copies (last_used_at);
      -- 'too_large' used to be recorded when the stamping process was killed (memory, time):
      -- that says nothing final about the file, so those are tried again. Only a file over the
      -- parse limit (100 MB, render.ts MAX_PARSED_INPUT_BYTES) is too large for good.
      UPDATE files SET pdf_stamp = NULL
        WHERE pdf_stamp = 'too_large' AND size_bytes <= 100 * 1024 * 1024;
    `,
  },
  {
    id: '0010_entitlement_reinstated',
    sql: `
      -- A chargeback the seller won gives access back (payments' purchase.reinstated). Kept as a
      -- time, so a chargeback that reaches us after it (redelivered, or late) revokes nothing.
      ALTER TABLE entitlements ADD COLUMN reinstated_at timestamptz;
    `,
  },
];

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
];

import type { Migration } from '@lockdrop/db';

/**
 * Seller API keys (issue 27). Only a keyed hash of the secret is stored (domain/api-keys.ts says
 * why not argon2); `prefix` is the harmless start of the key shown in settings. `last_used_*` is
 * written at most once a minute per key (introspection), not on every request.
 */
export const apiKeys: Migration = {
  id: '0020_api_keys',
  sql: `
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      mode text NOT NULL CHECK (mode IN ('live', 'test')),
      prefix text NOT NULL,
      secret_hash bytea NOT NULL UNIQUE,
      scopes text[] NOT NULL CHECK (cardinality(scopes) > 0),
      api_version text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      revoked_at timestamptz,
      last_used_at timestamptz,
      last_used_ip text
    );
    CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at DESC);
  `,
};

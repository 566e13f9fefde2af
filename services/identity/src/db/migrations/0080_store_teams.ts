import type { Migration } from '@lockdrop/db';

/**
 * Team seats (issue 28). A store is a seller account: its id is the owner's user id, so every
 * ownership check elsewhere keeps comparing one id. The owner is implicit (store_id = user id)
 * and has no row: the owner can be neither removed nor changed here (transfer comes later).
 *
 * - store_members: one row per membership; removal stamps `removed_at` (the audit keeps who it
 *   was), and at most one live row per store and person.
 * - store_invites: e-mailed, single use, bound to the address, 72 h; only the token's SHA-256
 *   is kept. A pending invite takes a seat, so a store cannot invite past its plan.
 * - audit_log: team (and later money) actions of a store, who, what, when and from where.
 * - sessions.acting_store_id: the store a session currently acts for; refresh re-checks the
 *   membership before it mints another acting token.
 */
export const storeTeams: Migration = {
  id: '0080_store_teams',
  sql: `
    CREATE TABLE store_members (
      id uuid PRIMARY KEY,
      store_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('admin', 'editor', 'support', 'accountant')),
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      removed_at timestamptz,
      CHECK (store_id <> user_id)
    );
    CREATE UNIQUE INDEX store_members_live ON store_members (store_id, user_id)
      WHERE removed_at IS NULL;
    CREATE INDEX store_members_user ON store_members (user_id) WHERE removed_at IS NULL;

    CREATE TABLE store_invites (
      id uuid PRIMARY KEY,
      store_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      email text NOT NULL CHECK (email = lower(email)),
      role text NOT NULL CHECK (role IN ('admin', 'editor', 'support', 'accountant')),
      token_hash text NOT NULL UNIQUE,
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX store_invites_pending ON store_invites (store_id)
      WHERE accepted_at IS NULL AND revoked_at IS NULL;

    CREATE TABLE audit_log (
      id uuid PRIMARY KEY,
      store_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
      action text NOT NULL,
      target text,
      details jsonb NOT NULL DEFAULT '{}',
      ip text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX audit_log_store ON audit_log (store_id, created_at DESC);

    ALTER TABLE sessions ADD COLUMN acting_store_id uuid REFERENCES users (id) ON DELETE SET NULL;
  `,
};

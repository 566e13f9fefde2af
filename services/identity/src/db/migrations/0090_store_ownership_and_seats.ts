import type { Migration } from '@lockdrop/db';

/**
 * The rest of issue 28's teams: ownership transfer, seats after a downgrade, and where an
 * audited action came from.
 *
 * - store_owners: a store whose owner is no longer the account it was created under (a
 *   transfer). No row = the account is its own store's owner, as before; the store's id never
 *   changes, so every service's ownership column stays right.
 * - store_members may now hold the account's own person: a former owner keeps working in the
 *   store their account is, as an admin (the 0080 check forbade it).
 * - store_members.read_only_since: a member past the plan's seats after a downgrade keeps the
 *   accountant's read rights until the owner keeps or removes them.
 * - audit_log.user_agent, and an index to page one member's entries.
 */
export const storeOwnershipAndSeats: Migration = {
  id: '0090_store_ownership_and_seats',
  sql: `
    CREATE TABLE store_owners (
      store_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      -- A deleted new owner hands the store back to the account it is (the row goes).
      owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      transferred_at timestamptz NOT NULL DEFAULT now(),
      CHECK (store_id <> owner_id)
    );
    CREATE INDEX store_owners_owner ON store_owners (owner_id);

    ALTER TABLE store_members DROP CONSTRAINT IF EXISTS store_members_check;
    ALTER TABLE store_members ADD COLUMN read_only_since timestamptz;

    ALTER TABLE audit_log ADD COLUMN user_agent text;
    CREATE INDEX audit_log_store_actor ON audit_log (store_id, actor_id, created_at DESC);
  `,
};

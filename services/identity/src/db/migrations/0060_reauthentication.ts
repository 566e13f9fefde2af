import type { Migration } from '@lockdrop/db';

/**
 * Re-authentication before sensitive changes (issue 30, item 4). `auth_time` is when the person
 * last proved who they are on this session (sign-in, second factor, Google, or a re-auth); refreshes
 * keep it, so a stolen refresh token never yields a "recent" proof. Sessions opened before this
 * count from their creation (their sign-in). One e-mailed code per account at a time, for
 * accounts with neither a password nor a second factor (Google only).
 */
export const reauthentication: Migration = {
  id: '0060_reauthentication',
  sql: `
    ALTER TABLE sessions ADD COLUMN auth_time timestamptz;
    UPDATE sessions SET auth_time = created_at;
    ALTER TABLE sessions ALTER COLUMN auth_time SET DEFAULT now(),
      ALTER COLUMN auth_time SET NOT NULL;

    CREATE TABLE reauthentication_codes (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};

import type { Migration } from '@lockdrop/db';

export const accounts: Migration = {
  id: '0001_accounts',
  sql: `
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      -- Stored lower-cased: e-mail addresses compare case-insensitively everywhere (purchases too).
      email text NOT NULL CHECK (email = lower(email)),
      email_verified_at timestamptz,
      -- NULL for accounts that only sign in with Google.
      password_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (email);

    CREATE TABLE profiles (
      id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      full_name text NOT NULL,
      avatar_url text,
      plan text NOT NULL DEFAULT 'free',
      -- occurredAt of the plan.changed event applied last: an older event arriving late is ignored.
      plan_changed_at timestamptz,
      payout_details jsonb,
      role text CHECK (role IN ('freelancer', 'agency', 'creator', 'business')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    -- A session is one refresh-token family: every rotation stays in it, reuse revokes it.
    CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      persistent boolean NOT NULL,
      user_agent text,
      ip text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoked_reason text
    );
    CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;

    CREATE TABLE refresh_tokens (
      token_hash text PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      rotated_at timestamptz
    );
    CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

    CREATE TABLE email_tokens (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
      email text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);

    CREATE TABLE mfa_factors (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      secret text NOT NULL,
      verified_at timestamptz,
      -- The TOTP time step accepted last: a code is never accepted twice.
      last_used_step bigint,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE mfa_challenges (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      persistent boolean NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    );

    CREATE TABLE oauth_identities (
      provider text NOT NULL,
      subject text NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, subject)
    );

    CREATE TABLE oauth_states (
      state_hash text PRIMARY KEY,
      provider text NOT NULL,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      redirect_to text NOT NULL,
      persistent boolean NOT NULL,
      expires_at timestamptz NOT NULL
    );

    CREATE TABLE throttle_counters (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      window_ends_at timestamptz NOT NULL
    );
    CREATE INDEX throttle_counters_window_idx ON throttle_counters (window_ends_at);

    -- Only used when JWT_PRIVATE_KEYS is not set (development): generated once, kept across restarts.
    CREATE TABLE signing_keys (
      kid text PRIMARY KEY,
      private_jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
  `,
};

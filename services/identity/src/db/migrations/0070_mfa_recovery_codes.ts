import type { Migration } from '@lockdrop/db';

/**
 * MFA recovery codes (issue 29, item 11): ten one-time codes a seller who lost the phone with
 * their authenticator signs in with. Only a salted scrypt hash of each is kept
 * (domain/recovery-codes.ts). They hang off the factor, so turning MFA off drops them;
 * regenerating replaces the whole set. `used_at` keeps a spent code's row so the set's count and
 * "how many remain" stay readable.
 */
export const mfaRecoveryCodes: Migration = {
  id: '0070_mfa_recovery_codes',
  sql: `
    CREATE TABLE mfa_recovery_codes (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES mfa_factors (user_id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX mfa_recovery_codes_user ON mfa_recovery_codes (user_id) WHERE used_at IS NULL;
  `,
};

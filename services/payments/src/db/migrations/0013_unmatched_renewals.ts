import type { Migration } from '@lockdrop/db';

/**
 * Renewals the provider charged that payments cannot tie to exactly one subscription (issue 30):
 * parked for an operator instead of credited to a guess. `candidates` are the subscriptions the
 * charge could belong to (none, or several sharing one provider plan from before every
 * subscription had its own); `resolved_at` is set when an operator has dealt with it.
 */
export const unmatchedRenewals: Migration = {
  id: '0013_unmatched_renewals',
  sql: `
    CREATE TABLE unmatched_renewals (
      id bigserial PRIMARY KEY,
      provider text NOT NULL,
      transaction_id text NOT NULL,
      tx_ref text NOT NULL,
      provider_plan_id text,
      customer_email text,
      amount_minor bigint NOT NULL,
      currency text NOT NULL,
      candidates uuid[] NOT NULL,
      reason text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      resolved_at timestamptz,
      UNIQUE (provider, transaction_id)
    );
    CREATE INDEX unmatched_renewals_open_idx ON unmatched_renewals (created_at) WHERE resolved_at IS NULL;
  `,
};

import type { Migration } from '@lockdrop/db';

/** The sandbox payout provider's own state, as a real provider keeps it on its side. */
export const sandboxTransfers: Migration = {
  id: '0002_sandbox_transfers',
  sql: `
    CREATE SEQUENCE sandbox_transfer_ids START 9000001;
    CREATE TABLE sandbox_transfers (
      reference uuid PRIMARY KEY,
      id bigint NOT NULL UNIQUE DEFAULT nextval('sandbox_transfer_ids'),
      amount_minor bigint NOT NULL,
      currency text NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('successful', 'failed')),
      failure_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      complete_at timestamptz NOT NULL
    );
  `,
};

import type { Migration } from '@lockdrop/db';

/**
 * A refund (or a chargeback) is a record of its own, reconciled against the provider:
 * requested → pending → succeeded | failed. At most one is live or succeeded per purchase.
 */
export const refunds: Migration = {
  id: '0005_refunds',
  sql: `
    CREATE TABLE refunds (
      id uuid PRIMARY KEY,
      purchase_id uuid NOT NULL REFERENCES purchases (id),
      kind text NOT NULL CHECK (kind IN ('refund', 'chargeback')),
      status text NOT NULL CHECK (status IN ('requested', 'pending', 'succeeded', 'failed')),
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      provider text NOT NULL,
      provider_refund_id text,
      failure_reason text,
      requested_by uuid,
      requested_at timestamptz NOT NULL,
      completed_at timestamptz,
      checks integer NOT NULL DEFAULT 0,
      next_check_at timestamptz,
      correlation_id text NOT NULL
    );
    CREATE UNIQUE INDEX refunds_one_per_purchase_idx ON refunds (purchase_id) WHERE status <> 'failed';
    CREATE INDEX refunds_due_idx ON refunds (next_check_at) WHERE status IN ('requested', 'pending');
  `,
};

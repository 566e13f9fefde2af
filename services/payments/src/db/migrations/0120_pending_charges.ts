import type { Migration } from '@lockdrop/db';

/**
 * Issue 27's `sale.pending`: a product payment the provider's verify API reports as pending (a
 * bank transfer or USSD payment not completed yet) is announced once per provider transaction,
 * and if that transaction then fails, its failure is announced once too (`failed_at`). The
 * sandbox gains the pending state its bank-transfer button leaves a payment in.
 */
export const pendingCharges: Migration = {
  id: '0120_pending_charges',
  sql: `
    CREATE TABLE pending_charges (
      provider text NOT NULL,
      transaction_id text NOT NULL,
      checkout_id uuid NOT NULL REFERENCES checkouts (id),
      reported_at timestamptz NOT NULL,
      failed_at timestamptz,
      PRIMARY KEY (provider, transaction_id)
    );
    CREATE INDEX pending_charges_checkout_idx ON pending_charges (checkout_id);

    ALTER TABLE sandbox_payments DROP CONSTRAINT sandbox_payments_status_check;
    ALTER TABLE sandbox_payments ADD CONSTRAINT sandbox_payments_status_check
      CHECK (status IN ('initiated', 'pending', 'successful', 'failed', 'cancelled'));
    ALTER TABLE sandbox_payments ADD COLUMN payment_type text NOT NULL DEFAULT 'card';
  `,
};

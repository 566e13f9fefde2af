import type { Migration } from '@lockdrop/db';

/**
 * Issue 30 (should fix): the annual-plan refund is a refund record like a sale's — committed
 * before the provider is asked, followed by the reconciler when the answer is lost — so a
 * timeout and a second click cannot refund twice. A refund gives back either a purchase or a
 * charge of a subscription (a seller's plan period); at most one is live or succeeded per charge.
 */
export const planRefundRecords: Migration = {
  id: '0100_plan_refund_records',
  sql: `
    ALTER TABLE refunds ALTER COLUMN purchase_id DROP NOT NULL;
    ALTER TABLE refunds ADD COLUMN charge_id uuid REFERENCES subscription_charges (id);
    ALTER TABLE refunds ADD CONSTRAINT refunds_owner_check
      CHECK ((purchase_id IS NOT NULL)::int + (charge_id IS NOT NULL)::int = 1);
    CREATE UNIQUE INDEX refunds_one_per_charge_idx ON refunds (charge_id)
      WHERE charge_id IS NOT NULL AND status <> 'failed';
  `,
};

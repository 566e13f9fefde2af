import type { Migration } from '@lockdrop/db';

/**
 * Issue 30 item 7: disputes are confirmed with the provider before a sale is reversed, and a
 * dispute the seller wins restores the sale. The sandbox keeps a dispute per payment (its
 * `findDispute` answer); a chargeback refund the seller won becomes `reversed`, and the journal
 * that undoes its reversal is `dispute_won`.
 */
export const disputes: Migration = {
  id: '0012_disputes',
  sql: `
    ALTER TABLE sandbox_payments ADD COLUMN dispute_status text
      CHECK (dispute_status IN ('open', 'won', 'lost'));
    ALTER TABLE refunds DROP CONSTRAINT refunds_status_check;
    ALTER TABLE refunds ADD CONSTRAINT refunds_status_check
      CHECK (status IN ('requested', 'pending', 'succeeded', 'failed', 'reversed'));
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN
      ('payment', 'refund', 'release', 'payout', 'payout_paid', 'payout_failed', 'plan_payment',
       'plan_refund', 'dispute_won'));
  `,
};

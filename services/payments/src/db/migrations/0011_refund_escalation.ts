import type { Migration } from '@lockdrop/db';

/**
 * Issue 30 item 6: a refund the provider has no record of is never called failed from that
 * silence. Past the follow-up horizon it is escalated (`escalated_at`): listed for an operator,
 * counted on /metrics, and still asked about with backoff until the provider answers.
 */
export const refundEscalation: Migration = {
  id: '0011_refund_escalation',
  sql: `
    ALTER TABLE refunds ADD COLUMN escalated_at timestamptz;
    ALTER TABLE refunds ADD COLUMN last_checked_at timestamptz;
    CREATE INDEX refunds_unresolved_idx ON refunds (escalated_at)
      WHERE escalated_at IS NOT NULL AND status IN ('requested', 'pending');
  `,
};

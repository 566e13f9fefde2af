import type { Migration } from '@lockdrop/db';

/**
 * Issue 30: a payout whose transfer the provider neither confirmed nor denied (a duplicate
 * reference no lookup finds, a refusal after an earlier attempt's answer was lost) is flagged
 * unknown. It keeps its status (`created`/`submitted`) and its money in transit; only the
 * provider's own answer about the transfer clears the flag. The index serves the operator's
 * list and the `/metrics` gauge.
 */
export const payoutOutcomeUnknown: Migration = {
  id: '0014_payout_outcome_unknown',
  sql: `
    ALTER TABLE payouts ADD COLUMN outcome_unknown_since timestamptz;
    ALTER TABLE payouts ADD COLUMN outcome_unknown_reason text;
    CREATE INDEX payouts_outcome_unknown_idx ON payouts (outcome_unknown_since)
      WHERE outcome_unknown_since IS NOT NULL;
  `,
};

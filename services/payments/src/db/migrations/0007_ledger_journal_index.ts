import type { Migration } from '@lockdrop/db';

/**
 * The deferred trigger that refuses unbalanced journals sums each inserted row's journal at
 * commit; without an index on journal_id every payment scanned the whole ledger four times, so
 * settling got slower with every sale ever made (found by the webhook benchmark, issue 11).
 * Settlement also looks subscription charges up by tx_ref.
 */
export const ledgerJournalIndex: Migration = {
  id: '0007_ledger_journal_index',
  sql: `
    CREATE INDEX ledger_entries_journal_idx ON ledger_entries (journal_id);
    CREATE INDEX subscription_charges_tx_ref_idx ON subscription_charges (tx_ref);
  `,
};

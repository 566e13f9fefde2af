import type { Migration } from '@lockdrop/db';

/**
 * Issue 31: every waiting provider event has a due time, so the settler's claim can walk the
 * pending index in its own order (an index scan, which also marks the entries of settled events
 * dead as it passes them). The claim used to take, besides due events, `received` rows stored
 * without a due time "after two minutes": that `OR` and its `NULLS FIRST` order left the planner
 * a full scan and a sort on every claim — 5.9 ms a claim at a steady 300 payments/s, growing
 * with the table until autovacuum. Rows stored that way (before acknowledging on store) get
 * the moment the old claim would have taken them.
 */
export const providerEventsAlwaysDue: Migration = {
  id: '0160_provider_events_always_due',
  sql: `
    UPDATE provider_events SET next_attempt_at = received_at + interval '2 minutes'
    WHERE status = 'received' AND next_attempt_at IS NULL;
  `,
};

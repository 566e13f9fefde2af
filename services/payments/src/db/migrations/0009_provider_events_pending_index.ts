import type { Migration } from '@lockdrop/db';

/**
 * Webhooks are acknowledged once stored and settled right after by the event drain (issue 11),
 * so newly received events are due at once: the index of due events covers them too.
 */
export const providerEventsPendingIndex: Migration = {
  id: '0009_provider_events_pending_index',
  sql: `
    CREATE INDEX provider_events_pending_idx ON provider_events (next_attempt_at)
      WHERE status IN ('received', 'parked', 'retry');
    DROP INDEX provider_events_due_idx;
  `,
};

import { z } from 'zod';

export const workerEvents = {
  /**
   * The worker's retention schedule fired: every service prunes the bookkeeping rows it owns
   * (sent outbox rows, processed-event records, stored provider events, spent download links)
   * older than its own configured retention. The worker owns the schedule, never the tables.
   */
  'retention.requested': {
    version: 1,
    schema: z.object({ runId: z.uuid(), requestedAt: z.iso.datetime({ offset: true }) }),
  },
} as const;

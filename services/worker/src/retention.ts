import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import type { WorkerConfig } from './config.js';
import type { JobRuntime } from './jobs/runtime.js';

export const RETENTION_QUEUE = 'retention';

/**
 * Once a day the worker announces `retention.due`; each service prunes its own bookkeeping
 * (processed event ids, published outbox rows) in its own schema, since no service touches
 * another's tables. Money records are never pruned (terms: kept at least 3 years).
 */
export async function startRetentionJob(config: WorkerConfig, jobs: JobRuntime, pool: Pool) {
  jobs.process(RETENTION_QUEUE, async (job) => {
    const dueAt = new Date(job.timestamp).toISOString();
    await withTransaction(pool, (tx) =>
      enqueueEvent(
        tx,
        createEvent('retention.due', { dueAt }, { correlationId: `retention:${job.id}` }),
      ),
    );
  });
  await jobs.schedule(
    RETENTION_QUEUE,
    'retention',
    { pattern: config.RETENTION_CRON, tz: config.PAYOUT_TZ },
    { name: 'prune', data: {} },
  );
}

import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import type { WorkerConfig } from '../config.js';
import type { JobRuntime } from './runtime.js';

export const RETENTION_QUEUE = 'retention';
export const SUBSCRIPTIONS_QUEUE = 'subscriptions';
export const DOMAINS_QUEUE = 'domain-rechecks';

/**
 * Clocks the worker keeps for the services: on each firing it announces an event carrying the
 * firing time, and the service that owns the data does the work in its own schema (no service
 * touches another's tables). The worker owns when, the service owns what.
 */
async function announceOnSchedule(
  jobs: JobRuntime,
  pool: Pool,
  options: {
    queue: string;
    pattern: string;
    tz: string;
    event: 'retention.due' | 'subscriptions.due' | 'domains.recheck_due';
  },
): Promise<void> {
  jobs.process(options.queue, async (job) => {
    const dueAt = new Date(job.timestamp).toISOString();
    await withTransaction(pool, (tx) =>
      enqueueEvent(
        tx,
        createEvent(options.event, { dueAt }, { correlationId: `${options.queue}:${job.id}` }),
      ),
    );
  });
  await jobs.schedule(
    options.queue,
    options.queue,
    { pattern: options.pattern, tz: options.tz },
    { name: 'announce', data: {} },
  );
}

/**
 * Nightly `retention.due`: each service prunes its own bookkeeping (processed event ids,
 * published outbox rows). Money records are never pruned (terms: kept at least 3 years).
 * Every minute `subscriptions.due`: payments renews, ends and reminds what is due.
 * Hourly `domains.recheck_due`: catalog looks custom domains' DNS records up again.
 */
export async function startAnnouncements(config: WorkerConfig, jobs: JobRuntime, pool: Pool) {
  await announceOnSchedule(jobs, pool, {
    queue: RETENTION_QUEUE,
    pattern: config.RETENTION_CRON,
    tz: config.PAYOUT_TZ,
    event: 'retention.due',
  });
  await announceOnSchedule(jobs, pool, {
    queue: SUBSCRIPTIONS_QUEUE,
    pattern: config.SUBSCRIPTIONS_CRON,
    tz: config.PAYOUT_TZ,
    event: 'subscriptions.due',
  });
  await announceOnSchedule(jobs, pool, {
    queue: DOMAINS_QUEUE,
    pattern: config.DOMAIN_RECHECK_CRON,
    tz: config.PAYOUT_TZ,
    event: 'domains.recheck_due',
  });
}

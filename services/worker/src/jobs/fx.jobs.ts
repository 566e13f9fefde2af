import type { Pool } from '@lockdrop/db';
import type { JobsOptions } from 'bullmq';
import { Counter, type Registry } from 'prom-client';
import type { WorkerConfig } from '../config.js';
import type { JobRuntime } from './runtime.js';
import { publishRateSet, publishSeedIfEmpty } from '../domain/fx/publish.js';
import { RateSourceError } from '../domain/fx/rates.js';
import { seedRateSet } from '../domain/fx/seed.js';
import { createRateSource } from '../domain/fx/sources.js';

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface FxJobsOptions {
  config: WorkerConfig;
  jobs: JobRuntime;
  pool: Pool;
  logger: Logger;
  metricsRegistry: Registry;
}

export const FX_QUEUE = 'fx-rates';
export const FX_REFRESH_JOB = 'refresh';
const FX_SCHEDULER = 'fx-refresh';

/** Each refresh is retried with exponential backoff; the next tick starts afresh. */
export const fxRefreshJobOptions = (config: WorkerConfig): JobsOptions => ({
  attempts: config.FX_JOB_ATTEMPTS,
  backoff: { type: 'exponential', delay: config.FX_BACKOFF_MS },
});

/**
 * Exchange rates (issue 14): a fresh install publishes the shipped seed, then the refresh job
 * fetches a full USD set for FX_CURRENCIES from FX_SOURCE on FX_CRON, stores it in the history
 * and emits `fx.rates.updated` in one transaction. A failed refresh emits nothing — consumers
 * keep the last good rates — and is logged, counted and retried.
 */
export async function startFxJobs(options: FxJobsOptions): Promise<void> {
  const { config, jobs, pool, logger } = options;
  const seed = seedRateSet();
  if (await publishSeedIfEmpty(pool, seed)) {
    logger.info({ asOf: seed.fetchedAt.toISOString() }, 'published the shipped exchange rates');
  }

  const source = createRateSource(config);
  if (!source) {
    // A scheduler left by an earlier FX_SOURCE would fill a queue nobody works.
    await jobs.queue(FX_QUEUE).removeJobScheduler(FX_SCHEDULER);
    logger.info({}, 'FX_SOURCE=seed: exchange rates stay at the shipped seed');
    return;
  }
  const failures = new Counter({
    name: 'fx_refresh_failures_total',
    help: 'Failed exchange-rate refresh attempts (the last good rates stay), by source and reason',
    labelNames: ['source', 'reason'],
    registers: [options.metricsRegistry],
  });

  jobs.process(FX_QUEUE, async (job) => {
    try {
      const rates = await source.fetchRates();
      await publishRateSet(
        pool,
        { source: source.name, fetchedAt: new Date(), rates },
        `fx-refresh:${job.id}`,
        config.FX_MAX_CHANGE_PERCENT,
      );
      logger.info({ source: source.name, pairs: rates.length }, 'exchange rates refreshed');
    } catch (error) {
      const reason = error instanceof RateSourceError ? error.reason : 'error';
      failures.inc({ source: source.name, reason });
      logger.warn(
        { err: error, source: source.name, reason, attempt: job.attemptsMade + 1 },
        'exchange-rate refresh failed; the last good rates stay',
      );
      throw error;
    }
  });
  await jobs.schedule(
    FX_QUEUE,
    FX_SCHEDULER,
    { pattern: config.FX_CRON, tz: 'UTC' },
    { name: FX_REFRESH_JOB, data: {}, opts: fxRefreshJobOptions(config) },
  );
}

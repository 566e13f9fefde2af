import type { HttpServer } from '@lockdrop/http';
import { createMailer, dkimFromEnv, mailboxSchema, startMailRelay } from '@lockdrop/mailer';
import { createServiceApp } from '@lockdrop/service';
import type { WorkerConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { startFxJobs } from './jobs/fx.jobs.js';
import { createJobRuntime } from './jobs/runtime.js';
import type { PayoutAdapters } from './payouts/providers/index.js';
import { startPayoutJobs } from './payouts/payouts.jobs.js';
import { createQueueConnection, untilRedisReady } from './jobs/redis.js';
import { startAnnouncements } from './jobs/announcements.jobs.js';
import { pruneWebhookDeliveries, startWebhooks } from './webhooks/index.js';

/** What tests (and only tests) substitute: payout adapters that talk to local fakes. */
export interface WorkerDeps {
  payoutAdapters?: PayoutAdapters;
}

/**
 * Background jobs on BullMQ: payout runs and transfers, exchange-rate refresh, outgoing
 * webhooks. The HTTP server answers probes, metrics and the dashboard's webhook settings. Jobs report through events (this service's outbox), never by
 * writing another service's tables.
 */
export async function buildApp(config: WorkerConfig, deps: WorkerDeps = {}): Promise<HttpServer> {
  const { app, infra } = await createServiceApp({
    name: 'worker',
    config,
    migrations,
    prune: pruneWebhookDeliveries,
    sharedSchemas: [mailboxSchema],
  });
  const mailer = await createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    pool: infra.pool,
    dkim: dkimFromEnv(config),
  });
  const mailRelay = startMailRelay({ pool: infra.pool, mailer, logger: app.log });
  const redis = createQueueConnection(config);
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
  await untilRedisReady(redis, app.log);
  const jobs = createJobRuntime({
    connection: redis,
    prefix: config.BUS_NAMESPACE,
    metricsRegistry: app.metricsRegistry,
    logger: app.log,
  });
  app.addReadinessCheck('redis', () => redis.ping());
  app.addReadinessCheck('schedulers', () => jobs.checkSchedulers());
  await startFxJobs({
    config,
    jobs,
    pool: infra.pool,
    logger: app.log,
    metricsRegistry: app.metricsRegistry,
  });
  const payouts = await startPayoutJobs({
    config,
    jobs,
    pool: infra.pool,
    bus: infra.bus,
    logger: app.log,
    adapters: deps.payoutAdapters,
  });
  const webhooks = await startWebhooks({
    app,
    config,
    jobs,
    pool: infra.pool,
    bus: infra.bus,
    onMailQueued: () => mailRelay.wake(),
  });
  await startAnnouncements(config, jobs, infra.pool);
  // preClose: jobs and consumers stop before the infrastructure (pool, bus) closes under them.
  app.addHook('preClose', async () => {
    await payouts.stop();
    await webhooks.stop();
    await jobs.close();
    await redis.quit();
    await mailRelay.stop();
    await mailer.close();
  });
  return app;
}

import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { WorkerConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { startFxJobs } from './fx/jobs.js';
import { createJobRuntime } from './jobs/runtime.js';
import { createQueueConnection } from './redis.js';

/**
 * Background jobs on BullMQ (payouts, exchange-rate refresh, e-mail), each added with the issue
 * that needs it. The HTTP server only answers probes and metrics.
 */
export async function buildApp(config: WorkerConfig): Promise<HttpServer> {
  const { app, infra } = await createServiceApp({ name: 'worker', config, migrations });
  const redis = createQueueConnection(config.REDIS_URL);
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
  await redis.connect();
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
  app.addHook('onClose', async () => {
    await jobs.close();
    await redis.quit();
  });
  return app;
}

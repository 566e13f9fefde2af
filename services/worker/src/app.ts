import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { WorkerConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { createQueueConnection } from './redis.js';

/**
 * Background jobs on BullMQ (payouts, exchange-rate refresh, e-mail), each added with the issue
 * that needs it. The HTTP server only answers probes and metrics.
 */
export async function buildApp(config: WorkerConfig): Promise<HttpServer> {
  const { app } = await createServiceApp({ name: 'worker', config, migrations });
  const redis = createQueueConnection(config.REDIS_URL);
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
  await redis.connect();
  app.addReadinessCheck('redis', () => redis.ping());
  app.addHook('onClose', async () => {
    await redis.quit();
  });
  return app;
}

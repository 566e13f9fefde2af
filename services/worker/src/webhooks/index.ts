import { createSecretBox } from '@lockdrop/auth';
import type { Bus } from '@lockdrop/bus';
import type { Pool, PoolClient } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import type { WorkerConfig } from '../config.js';
import type { JobRuntime } from '../jobs/runtime.js';
import { deliveryQueue, startDeliveryJobs } from './deliveries.jobs.js';
import { subscribeToWebhookEvents } from './webhooks.consumer.js';
import { apiV1WebhookRoutes } from './webhooks.api-v1.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import { createWebhookService } from './webhooks.js';
import { pruneDeliveries } from './webhooks.repository.js';

/** How long the delivery log keeps a finished delivery. */
export const DELIVERY_LOG_RETENTION_DAYS = 90;

/** The worker's part of `retention.due`: finished deliveries older than 90 days. */
export async function pruneWebhookDeliveries(
  tx: PoolClient,
  dueAt: Date,
): Promise<Record<string, number>> {
  const before = new Date(dueAt.getTime() - DELIVERY_LOG_RETENTION_DAYS * 24 * 3_600_000);
  return { webhookDeliveries: await pruneDeliveries(tx, before) };
}

/**
 * Outgoing webhooks (README "Webhooks for sellers"): the dashboard's routes, the consumers that
 * turn domain events into deliveries, and the BullMQ jobs that send them.
 */
export async function startWebhooks(deps: {
  app: HttpServer;
  config: WorkerConfig;
  jobs: JobRuntime;
  pool: Pool;
  bus: Bus;
  onMailQueued: () => void;
}): Promise<{ stop(): Promise<void> }> {
  const { app, config, jobs, pool, bus } = deps;
  const box = createSecretBox(config.WEBHOOK_ENCRYPTION_KEYS);
  const queue = startDeliveryJobs({ config, jobs, pool, box, onMailQueued: deps.onMailQueued });
  const deliveries = deliveryQueue(queue, config);
  const webhooks = createWebhookService({ pool, box, deliveries });
  webhookRoutes(app, webhooks, { reauthMaxAgeSeconds: config.REAUTH_MAX_AGE_SECONDS });
  apiV1WebhookRoutes(app, webhooks);
  const subscriptions = await subscribeToWebhookEvents({ bus, pool, deliveries });
  return {
    async stop() {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    },
  };
}

import type { TokenVerifier } from '@lockdrop/auth';
import { createPool, pingDatabase } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { AnalyticsConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { createAnalyticsService } from './domain/analytics.js';
import { subscribeToActivityEvents } from './events/activity.consumer.js';
import { subscribeToProductEvents } from './events/products.consumer.js';
import { analyticsRoutes } from './routes/analytics.js';
import { apiV1AnalyticsRoutes } from './routes/api-v1-analytics.js';

export interface AnalyticsDeps {
  /** Tests sign their own tokens; by default tokens are verified against identity's JWKS. */
  verifier?: TokenVerifier;
  /** "Today" of the reporting periods. */
  now?: () => Date;
}

/** Raw product events and per-product per-day rollups for seller dashboards. */
export async function buildApp(
  config: AnalyticsConfig,
  deps: AnalyticsDeps = {},
): Promise<HttpServer> {
  const { app, infra } = await createServiceApp({
    name: 'analytics',
    config,
    migrations,
    verifier: deps.verifier,
  });
  const { pool, bus } = infra;
  const readPool = config.DATABASE_READ_URL
    ? createPool({ connectionString: config.DATABASE_READ_URL, schema: 'analytics' })
    : pool;
  if (readPool !== pool) {
    app.addReadinessCheck('database-read', () => pingDatabase(readPool));
    app.addHook('onClose', () => readPool.end());
  }
  const analytics = createAnalyticsService({ pool: readPool, now: deps.now ?? (() => new Date()) });
  analyticsRoutes(app, analytics);
  apiV1AnalyticsRoutes(app, analytics);
  const subscriptions = [
    ...(await subscribeToProductEvents({ bus, pool })),
    ...(await subscribeToActivityEvents({ bus, pool })),
  ];
  // Registered after the infrastructure's hook, so consumers stop before the pool closes.
  app.addHook('onClose', async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
  });
  return app;
}

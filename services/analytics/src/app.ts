import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { AnalyticsConfig } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Raw product events and per-product per-day rollups for seller dashboards. */
export async function buildApp(config: AnalyticsConfig): Promise<HttpServer> {
  const { app } = await createServiceApp({ name: 'analytics', config, migrations });
  return app;
}

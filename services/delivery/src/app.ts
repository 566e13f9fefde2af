import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { DeliveryConfig } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Uploaded files, server-rendered previews, entitlements and signed downloads. */
export async function buildApp(config: DeliveryConfig): Promise<HttpServer> {
  const { app } = await createServiceApp({ name: 'delivery', config, migrations });
  return app;
}

import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { CatalogConfig } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Products, prices, platform settings and exchange rates. */
export async function buildApp(config: CatalogConfig): Promise<HttpServer> {
  const { app } = await createServiceApp({ name: 'catalog', config, migrations });
  return app;
}

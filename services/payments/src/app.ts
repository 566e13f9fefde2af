import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { PaymentsConfig } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Checkouts, provider webhooks, purchases, the ledger, refunds and payouts. */
export async function buildApp(config: PaymentsConfig): Promise<HttpServer> {
  const { app } = await createServiceApp({ name: 'payments', config, migrations });
  return app;
}

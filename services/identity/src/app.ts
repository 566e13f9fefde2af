import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { IdentityConfig } from './config.js';
import { migrations } from './db/migrations/index.js';

/** Accounts, sessions, e-mail verification, profiles, MFA; issues access tokens and publishes the JWKS. */
export async function buildApp(config: IdentityConfig): Promise<HttpServer> {
  const { app } = await createServiceApp({ name: 'identity', config, migrations });
  return app;
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@lockdrop/config';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { buildApp as buildCatalog } from '@lockdrop/catalog/src/app.js';
import { configSchema as catalogConfig } from '@lockdrop/catalog/src/config.js';
import { buildApp as buildDelivery } from '@lockdrop/delivery/src/app.js';
import { configSchema as deliveryConfig } from '@lockdrop/delivery/src/config.js';
import { buildApp as buildIdentity } from '@lockdrop/identity/src/app.js';
import { configSchema as identityConfig } from '@lockdrop/identity/src/config.js';
import { buildApp as buildPayments } from '@lockdrop/payments/src/app.js';
import { configSchema as paymentsConfig } from '@lockdrop/payments/src/config.js';
import { buildApp as buildGateway } from '@lockdrop/gateway/src/app.js';
import { configSchema as gatewayConfig } from '@lockdrop/gateway/src/config.js';
import { createTestDatabase, deleteStreams, testEnv, testNamespace } from '@lockdrop/testing';
import { storePeople } from './people.js';

/**
 * Identity, delivery, catalog (and payments when asked) on real HTTP over one test database and
 * bus namespace, for gateways a test starts in front of them; `people` sign up through the
 * first gateway started. `close()` stops everything and drops what it made.
 */
export async function startTeamStack({ label, payments }: { label: string; payments: boolean }) {
  const database = await createTestDatabase();
  const db: Pool = createPool({ connectionString: database.url, schema: 'identity', max: 2 });
  const dataDir = await mkdtemp(path.join(tmpdir(), `lockdrop-${label}-data-`));
  const webDist = await mkdtemp(path.join(tmpdir(), `lockdrop-${label}-web-`));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  const namespace = testNamespace();
  const apps: HttpServer[] = [];
  const listen = async (app: HttpServer) => {
    apps.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  };
  const env = {
    DATABASE_URL: database.url,
    NATS_URL: testEnv.natsUrl,
    REDIS_URL: testEnv.redisUrl,
    BUS_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
  };
  const identityUrl = await listen(await buildIdentity(loadConfig(identityConfig, env)));
  const jwks = { ...env, JWKS_URL: `${identityUrl}/.well-known/jwks.json` };
  const deliveryUrl = await listen(
    await buildDelivery(loadConfig(deliveryConfig, { ...jwks, DATA_DIR: dataDir })),
  );
  const catalogUrl = await listen(
    await buildCatalog(loadConfig(catalogConfig, { ...jwks, DELIVERY_URL: deliveryUrl })),
  );
  // Nothing listens on port 9 (discard): a gateway without payments answers 502 for its routes.
  const paymentsUrl = payments
    ? await listen(await buildPayments(loadConfig(paymentsConfig, jwks)))
    : 'http://127.0.0.1:9';
  let people: ReturnType<typeof storePeople> | undefined;

  return {
    db,
    dataDir,
    namespace,
    deliveryUrl,
    get people() {
      if (!people) throw new Error('start a gateway first');
      return people;
    },
    /** A gateway replica with its own Redis key prefix `prefix`; its base URL. */
    async startGateway(prefix: string, extra: Record<string, string> = {}): Promise<string> {
      const url = await listen(
        await buildGateway(
          loadConfig(gatewayConfig, {
            ...env,
            WEB_DIST: webDist,
            IDENTITY_URL: identityUrl,
            CATALOG_URL: catalogUrl,
            DELIVERY_URL: deliveryUrl,
            PAYMENTS_URL: paymentsUrl,
            REDIS_KEY_PREFIX: `${namespace}:${prefix}:`,
            SENSITIVE_RATE_LIMIT_PER_MINUTE: '1000',
            ...extra,
          }),
        ),
      );
      people ??= storePeople({ db, origin: url });
      return url;
    },
    async close() {
      for (const app of apps.reverse()) await app.close();
      await db.end();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
      await rm(webDist, { recursive: true, force: true });
    },
  };
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCatalogHarness, type CatalogHarness } from '../catalog/support.js';
import { loadConfig } from '@lockdrop/config';
import type { HttpServer } from '@lockdrop/http';
import { testEnv } from '@lockdrop/testing';
import { buildApp } from '@lockdrop/gateway/src/app.js';
import { configSchema } from '@lockdrop/gateway/src/config.js';

export const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Lockdrop — Sell files behind a secure payment link</title>
    <meta name="description" content="Upload a file, set a price and share a secure payment link." />
  </head>
  <body><div id="root"></div><!-- spa shell --></body>
</html>
`;

export interface StorefrontHarness {
  /** The real catalog (own database and bus namespace), reachable at `catalogUrl`. */
  catalog: CatalogHarness;
  catalogUrl: string;
  gateway: HttpServer;
  /** Another gateway on the same bus and web build (e.g. in front of an unreachable catalog). */
  buildGateway(env?: Record<string, string>): Promise<HttpServer>;
  close(): Promise<void>;
}

/** A real gateway in front of a real catalog, sharing its bus namespace (product events, views). */
export async function createStorefrontHarness(): Promise<StorefrontHarness> {
  const catalog = await createCatalogHarness();
  const catalogUrl = await catalog.app.listen({ port: 0, host: '127.0.0.1' });
  const webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-storefront-'));
  await writeFile(path.join(webDist, 'index.html'), SHELL);
  const gateways: HttpServer[] = [];
  const buildGateway = async (env: Record<string, string> = {}) => {
    const gateway = await buildApp(
      loadConfig(configSchema, {
        CATALOG_URL: catalogUrl,
        REDIS_URL: testEnv.redisUrl,
        REDIS_KEY_PREFIX: `${catalog.namespace}:gateway${gateways.length}:`,
        NATS_URL: testEnv.natsUrl,
        BUS_NAMESPACE: catalog.namespace,
        WEB_DIST: webDist,
        PUBLIC_URL: 'https://lockdrop.example/',
        LOG_LEVEL: 'silent',
        ...env,
      }),
    );
    gateways.push(gateway);
    return gateway;
  };
  const gateway = await buildGateway();
  return {
    catalog,
    catalogUrl,
    gateway,
    buildGateway,
    async close() {
      await Promise.all(gateways.map((app) => app.close()));
      await catalog.close();
      await rm(webDist, { recursive: true, force: true });
    },
  };
}

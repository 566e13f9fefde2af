import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@lockdrop/config';
import type { HttpServer } from '@lockdrop/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { configSchema } from '../src/config.js';

// The gateway with its Redis gone: a port that accepts nothing, and a catalog that answers.
let gateway: HttpServer;
let catalog: Server;
let webDist: string;
let catalogUrl: string;
const upstreamPaths: string[] = [];

beforeAll(async () => {
  catalog = createServer((request, response) => {
    upstreamPaths.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    response.end('{}');
  });
  await new Promise<void>((resolve) => catalog.listen(0, '127.0.0.1', resolve));
  catalogUrl = `http://127.0.0.1:${(catalog.address() as { port: number }).port}`;
  webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-outage-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  gateway = await gatewayWithoutRedis();
});

/** A gateway whose Redis accepts nothing, routing to the stand-in catalog. */
const gatewayWithoutRedis = (env: Record<string, string> = {}) =>
  buildApp(
    loadConfig(configSchema, {
      REDIS_URL: 'redis://127.0.0.1:1',
      CATALOG_URL: catalogUrl,
      IDENTITY_URL: catalogUrl,
      WEB_DIST: webDist,
      LOG_LEVEL: 'silent',
      ...env,
    }),
  );
afterAll(async () => {
  await gateway?.close();
  catalog?.closeAllConnections();
  await new Promise((resolve) => catalog?.close(resolve));
  if (webDist) await rm(webDist, { recursive: true, force: true });
});

describe('with Redis down', () => {
  it('refuses sign-in rather than letting guesses through uncounted', async () => {
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: 'a@example.com', password: 'guess' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('rate_limit_unavailable');
  });

  it('keeps serving public reads', async () => {
    const response = await gateway.inject({ url: '/api/products/some-product' });
    expect(response.statusCode).toBe(200);
  });

  it('still holds the general API budget, which counts in memory', async () => {
    const limited = await gatewayWithoutRedis({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let read = 0; read < 4; read += 1)
        statuses.push((await limited.inject({ url: '/api/products/some-product' })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('says it is not ready without telling the world why', async () => {
    const response = await gateway.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'not_ready', checks: { redis: 'down' } });
  });
});

describe('/api/docs/json', () => {
  it('merges the services at most once a minute, however often it is fetched', async () => {
    for (let fetches = 0; fetches < 5; fetches += 1)
      expect((await gateway.inject({ url: '/api/docs/json' })).statusCode).toBe(200);
    // One merge asks every upstream once; identity and catalog are both this fake here.
    expect(upstreamPaths.filter((url) => url === '/openapi.json')).toHaveLength(2);
  });
});

import { brotliCompressSync, gzipSync } from 'node:zlib';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@lockdrop/config';
import type { HttpServer } from '@lockdrop/http';
import { buildApp as buildAnalytics } from '@lockdrop/analytics/src/app.js';
import { configSchema as analyticsConfig } from '@lockdrop/analytics/src/config.js';
import { buildApp as buildCatalog } from '@lockdrop/catalog/src/app.js';
import { configSchema as catalogConfig } from '@lockdrop/catalog/src/config.js';
import { buildApp as buildDelivery } from '@lockdrop/delivery/src/app.js';
import { configSchema as deliveryConfig } from '@lockdrop/delivery/src/config.js';
import { buildApp as buildIdentity } from '@lockdrop/identity/src/app.js';
import { configSchema as identityConfig } from '@lockdrop/identity/src/config.js';
import { buildApp as buildPayments } from '@lockdrop/payments/src/app.js';
import { configSchema as paymentsConfig } from '@lockdrop/payments/src/config.js';
import { buildApp as buildWorker } from '@lockdrop/worker/src/app.js';
import { configSchema as workerConfig } from '@lockdrop/worker/src/config.js';
import {
  createTestDatabase,
  deleteStreams,
  testEnv,
  testNamespace,
  type TestDatabase,
} from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp as buildGateway } from '@lockdrop/gateway/src/app.js';
import { configSchema as gatewayConfig } from '@lockdrop/gateway/src/config.js';

// The whole back end, real services on real Postgres/NATS/Redis, with the gateway in front.
let database: TestDatabase;
let webDist: string;
let gateway: HttpServer;
let gatewayUrl: string;
const namespace = testNamespace();
const services: Record<string, { app: HttpServer; url: string }> = {};

async function start(name: string, app: HttpServer) {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  services[name] = { app, url: address };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const env = {
    DATABASE_URL: database.url,
    NATS_URL: testEnv.natsUrl,
    REDIS_URL: testEnv.redisUrl,
    BUS_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
  };
  await Promise.all([
    buildIdentity(loadConfig(identityConfig, env)).then((app) => start('identity', app)),
    buildCatalog(loadConfig(catalogConfig, env)).then((app) => start('catalog', app)),
    buildPayments(loadConfig(paymentsConfig, env)).then((app) => start('payments', app)),
    buildDelivery(loadConfig(deliveryConfig, env)).then((app) => start('delivery', app)),
    buildAnalytics(loadConfig(analyticsConfig, env)).then((app) => start('analytics', app)),
    buildWorker(loadConfig(workerConfig, env)).then((app) => start('worker', app)),
  ]);

  webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await mkdir(path.join(webDist, 'prerendered'));
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><div id="root"></div><!-- spa shell -->',
  );
  const script = 'console.log("app");'.repeat(200);
  await writeFile(path.join(webDist, 'assets', 'index-Bx7k2.js'), script);
  // What web/scripts/precompress.mjs writes beside each text file at build time.
  await writeFile(path.join(webDist, 'assets', 'index-Bx7k2.js.br'), brotliCompressSync(script));
  await writeFile(path.join(webDist, 'assets', 'index-Bx7k2.js.gz'), gzipSync(script));
  await writeFile(
    path.join(webDist, 'prerendered', 'pricing.html'),
    '<!doctype html><h1>Pricing</h1>',
  );

  gateway = await buildGateway(
    loadConfig(gatewayConfig, {
      ...env,
      WEB_DIST: webDist,
      IDENTITY_URL: services.identity!.url,
      CATALOG_URL: services.catalog!.url,
      PAYMENTS_URL: services.payments!.url,
      DELIVERY_URL: services.delivery!.url,
      ANALYTICS_URL: services.analytics!.url,
      WORKER_URL: services.worker!.url,
      SENSITIVE_RATE_LIMIT_PER_MINUTE: '3',
      BODY_LIMIT_BYTES: '1024',
      REDIS_KEY_PREFIX: `${namespace}:gateway:`,
    }),
  );
  gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await Promise.all(Object.values(services).map(({ app }) => app.close()));
  await deleteStreams(testEnv.natsUrl, namespace);
  await database?.drop();
  await rm(webDist, { recursive: true, force: true });
});

const get = (pathname: string, init?: RequestInit) => fetch(new URL(pathname, gatewayUrl), init);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions below check the shape
const json = async (response: Response): Promise<any> => response.json();

describe('gateway routing', () => {
  it.each([
    ['/api/auth/session', 'identity'],
    ['/api/profile', 'identity'],
    ['/api/products/123', 'catalog'],
    ['/api/currencies', 'catalog'],
    ['/api/domain', 'catalog'],
    ['/api/uploads', 'delivery'],
    ['/dl/some-token', 'delivery'],
    ['/api/purchases', 'payments'],
    ['/api/webhooks/flutterwave', 'payments'],
    ['/api/analytics/products', 'analytics'],
  ])('sends %s to %s', async (pathname, service) => {
    const response = await get(pathname);
    expect(response.headers.get('x-served-by')).toBe(service);
  });

  it('passes its request id to the service that answers', async () => {
    const response = await get('/api/products/abc', {
      headers: { 'x-request-id': 'trace-0123456789' },
    });
    expect(response.headers.get('x-served-by')).toBe('catalog');
    expect(response.headers.get('x-request-id')).toBe('trace-0123456789');
  });

  it('answers unknown /api paths with a JSON 404 of its own', async () => {
    const response = await get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('x-served-by')).toBe('gateway');
    expect((await json(response)).error.code).toBe('not_found');
  });

  it('merges every service API into /api/docs', async () => {
    const document = await json(await get('/api/docs/json'));
    expect(document.info.title).toBe('Lockdrop API');
    expect(document.info.description ?? '').toBe('');
    expect((await get('/api/docs')).status).toBe(200);
  });
});

describe('gateway serving the SPA', () => {
  it('returns index.html, uncached, for client-side routes', async () => {
    const response = await get('/dashboard/payments');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('spa shell');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves the landing page at the site root', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('spa shell');
  });

  it('returns the prerendered page where the build made one', async () => {
    expect(await (await get('/pricing')).text()).toContain('<h1>Pricing</h1>');
  });

  it('caches hashed assets forever', async () => {
    const response = await get('/assets/index-Bx7k2.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves the build-time brotli or gzip copy the browser accepts, decompressing to the same bytes', async () => {
    for (const [accepted, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const response = await get('/assets/index-Bx7k2.js', {
        headers: { 'accept-encoding': accepted },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await response.text()).toBe('console.log("app");'.repeat(200));
    }
  });

  it('answers a missing asset with 404, not the SPA', async () => {
    expect((await get('/assets/missing-123.js')).status).toBe(404);
  });

  it('sends security headers', async () => {
    const response = await get('/');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("sends API answers the API's security headers, not a page's", async () => {
    const response = await get('/api/products/not-a-uuid');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-site');
    // Only pages use these; an API answer is never rendered as one.
    expect(response.headers.get('cross-origin-opener-policy')).toBeNull();
    expect(response.headers.get('referrer-policy')).toBeNull();
    // The API reference is a page (Swagger UI) and keeps a page's policy.
    const docs = await get('/api/docs/');
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});

describe('gateway limits', () => {
  it('refuses a body over the limit with 413 before it reaches the service', async () => {
    const response = await get('/api/products', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(4096) }),
    });
    expect(response.status).toBe(413);
    // The limit as it is (1024 bytes here), not rounded up to a megabyte.
    expect((await json(response)).error).toEqual({
      code: 'payload_too_large',
      message: 'Request body is larger than 1 KB',
    });
  });

  it('keeps the small limit for a JSON body sent to an upload route (only files are large)', async () => {
    const response = await get('/api/uploads/usage', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(4096) }),
    });
    expect(response.status).toBe(413);
    expect((await json(response)).error.code).toBe('payload_too_large');
  });

  // A declared length is checked once, up front; a body without one is counted as it comes, and
  // the proxy saw the cut as a failed upstream (502) until the cause was looked at.
  it('answers a chunked body that passes the limit with 413, not as an unreachable service', async () => {
    const chunks = [JSON.stringify({ title: 'Sent in pieces' }).slice(0, -1), ', "description": "'];
    for (let piece = 0; piece < 8; piece += 1) chunks.push('x'.repeat(256));
    chunks.push('"}');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const response = await get('/api/products', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await json(response)).error.code).toBe('payload_too_large');
  });

  it('answers 429 once a client exceeds the checkout rate limit', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await get('/api/checkout', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect((await json(response)).error.code).toBe('rate_limited');
        expect(response.headers.get('retry-after')).toBeTruthy();
      }
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });

  it('limits bank-account lookups per client like sign-in, so account holders cannot be enumerated', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await get('/api/payouts/resolve-account', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bankCode: '058', accountNumber: `012345678${attempt}` }),
      });
      statuses.push(response.status);
    }
    // Unauthenticated here (401) until the budget runs out.
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses[3]).toBe(429);
  });
});

describe('service probes', () => {
  it('every service answers /healthz and /readyz', async () => {
    for (const [name, { url }] of Object.entries(services)) {
      expect((await fetch(new URL('/healthz', url))).status, name).toBe(200);
      const ready = await fetch(new URL('/readyz', url));
      expect(ready.status, `${name} ${JSON.stringify(await json(ready.clone()))}`).toBe(200);
    }
    expect((await get('/readyz')).status).toBe(200);
  });

  // Runs last: it takes the database away from every service.
  it('/readyz fails when the database is down', async () => {
    await database.drop();
    for (const [name, { url }] of Object.entries(services)) {
      const ready = await fetch(new URL('/readyz', url));
      expect(ready.status, name).toBe(503);
      expect((await json(ready)).checks.database, name).toMatch(/^down/);
    }
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@lockdrop/config';
import type { HttpServer } from '@lockdrop/http';
import { buildApp as buildCatalog } from '@lockdrop/catalog/src/app.js';
import { configSchema as catalogConfig } from '@lockdrop/catalog/src/config.js';
import { buildApp as buildDelivery } from '@lockdrop/delivery/src/app.js';
import { configSchema as deliveryConfig } from '@lockdrop/delivery/src/config.js';
import { buildApp as buildIdentity } from '@lockdrop/identity/src/app.js';
import { configSchema as identityConfig } from '@lockdrop/identity/src/config.js';
import { buildApp as buildGateway } from '@lockdrop/gateway/src/app.js';
import { configSchema as gatewayConfig } from '@lockdrop/gateway/src/config.js';
import {
  createTestDatabase,
  deleteStreams,
  testEnv,
  testNamespace,
  type TestDatabase,
} from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The /api/v1 door: real identity (keys, introspection), catalog and delivery behind two gateway
// replicas on one Redis and one bus.
let database: TestDatabase;
let dataDir: string;
let webDist: string;
const namespace = testNamespace();
const apps: HttpServer[] = [];
let identityUrl: string;
let catalogUrl: string;
let replicaA: string;
let replicaB: string;

async function listen(app: HttpServer) {
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'lockdrop-keys-data-'));
  webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-keys-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  const env = {
    DATABASE_URL: database.url,
    NATS_URL: testEnv.natsUrl,
    REDIS_URL: testEnv.redisUrl,
    BUS_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
  };
  identityUrl = await listen(await buildIdentity(loadConfig(identityConfig, env)));
  const jwks = { ...env, JWKS_URL: `${identityUrl}/.well-known/jwks.json` };
  const deliveryUrl = await listen(
    await buildDelivery(loadConfig(deliveryConfig, { ...jwks, DATA_DIR: dataDir })),
  );
  catalogUrl = await listen(
    await buildCatalog(loadConfig(catalogConfig, { ...jwks, DELIVERY_URL: deliveryUrl })),
  );
  const gateway = (overrides: Record<string, string>) =>
    buildGateway(
      loadConfig(gatewayConfig, {
        ...env,
        WEB_DIST: webDist,
        IDENTITY_URL: identityUrl,
        CATALOG_URL: catalogUrl,
        DELIVERY_URL: deliveryUrl,
        REDIS_KEY_PREFIX: `${namespace}:gateway:`,
        // Long enough that only the revocation event can explain a refusal on the other replica.
        API_KEY_CACHE_SECONDS: '60',
        API_KEY_RATE_LIMIT_PER_MINUTE: '40',
        ...overrides,
      }),
    );
  replicaA = await listen(await gateway({}));
  replicaB = await listen(await gateway({}));
}, 120_000);

afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
  await deleteStreams(testEnv.natsUrl, namespace);
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(webDist, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions check the shape
type Json = any;
async function call(
  origin: string,
  pathname: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(new URL(pathname, origin), {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

/** A seller signed up through the gateway, with one uploaded file made into a draft product. */
async function sellerWithProduct() {
  const email = `api-${randomUUID()}@example.com`;
  const signUp = await fetch(new URL('/api/auth/sign-up', replicaA), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      fullName: 'Ada Api',
      email,
      password: 'correct horse battery',
      acceptTerms: true,
    }),
  });
  expect(signUp.status).toBe(201);
  const access = signUp.headers.getSetCookie().find((line) => line.startsWith('ld_access='))!;
  const cookie = access.split(';')[0]!;
  const session = { cookie };
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode(`bytes ${randomUUID()}`)]), 'notes.txt');
  const upload = await fetch(new URL('/api/uploads', replicaA), {
    method: 'POST',
    headers: session,
    body: form,
  });
  expect(upload.status).toBe(201);
  const fileId = ((await upload.json()) as { id: string }).id;
  const product = await call(replicaA, '/api/products', {
    method: 'POST',
    headers: session,
    body: {
      title: 'Field notes',
      description: 'Notes.',
      price: '5.00',
      currency: 'USD',
      fileId,
      previewEnabled: false,
      pricing: { type: 'one_time' },
    },
  });
  expect(product.status).toBe(201);
  const accessToken = cookie.slice('ld_access='.length);
  return { session, accessToken, productId: product.body.id as string };
}

async function createKey(session: Record<string, string>, scopes: string[]) {
  const created = await call(replicaA, '/api/auth/api-keys', {
    method: 'POST',
    headers: session,
    body: { name: 'script', mode: 'test', scopes },
  });
  expect(created.status).toBe(201);
  return {
    id: created.body.apiKey.id as string,
    auth: { authorization: `Bearer ${created.body.secret}` },
  };
}

describe('the /api/v1 door', () => {
  it('opens to an API key only, never to a session, and keys never open session routes', async () => {
    const seller = await sellerWithProduct();
    const key = await createKey(seller.session, ['products:read']);

    const listed = await call(replicaA, '/api/v1/products', { headers: key.auth });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ object: 'list', has_more: false });
    expect(listed.body.data.map((product: Json) => product.id)).toEqual([seller.productId]);
    expect(listed.headers.get('lockdrop-version')).toBe('2026-11-26');

    const sessions: Record<string, string>[] = [
      seller.session,
      { authorization: `Bearer ${seller.accessToken}` },
      {},
    ];
    for (const headers of sessions) {
      const refused = await call(replicaA, '/api/v1/products', { headers });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('api_key_required');
    }
    // Behind the gateway: a session's token sent straight to catalog's v1 route is refused, and
    // the internal token identity mints for a key opens no dashboard route (libs/auth).
    const direct = await call(catalogUrl, '/api/v1/products', {
      headers: { authorization: `Bearer ${seller.accessToken}` },
    });
    expect(direct.status).toBe(401);
    expect(direct.body.error.code).toBe('api_key_required');
    const internal = await call(identityUrl, '/internal/api-keys/introspect', {
      method: 'POST',
      body: { key: key.auth.authorization.slice('Bearer '.length) },
    });
    expect(internal.status).toBe(200);
    const keyToken = { authorization: `Bearer ${internal.body.accessToken}` };
    expect((await call(catalogUrl, '/api/v1/products', { headers: keyToken })).status).toBe(200);
    expect((await call(catalogUrl, '/api/products/mine', { headers: keyToken })).status).toBe(401);
    expect((await call(identityUrl, '/api/auth/api-keys', { headers: keyToken })).status).toBe(401);
    // Introspection is not reachable through the gateway.
    const outside = await call(replicaA, '/internal/api-keys/introspect', {
      method: 'POST',
      body: { key: key.auth.authorization.slice('Bearer '.length) },
    });
    expect(outside.status).toBe(404);
  });

  it('checks scopes and ownership: 403 without the scope, 404 for another seller’s product', async () => {
    const a = await sellerWithProduct();
    const b = await sellerWithProduct();
    const readOnly = await createKey(a.session, ['products:read']);
    const writer = await createKey(a.session, ['products:write', 'products:read']);

    const forbidden = await call(replicaA, `/api/v1/products/${a.productId}/publish`, {
      method: 'POST',
      headers: readOnly.auth,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ code: 'insufficient_scope' });

    const published = await call(replicaA, `/api/v1/products/${a.productId}/publish`, {
      method: 'POST',
      headers: writer.auth,
    });
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('published');

    // B publishes too: a published product of another seller is still a 404 through A's key.
    const bKey = await createKey(b.session, ['products:write']);
    expect(
      (
        await call(replicaA, `/api/v1/products/${b.productId}/publish`, {
          method: 'POST',
          headers: bKey.auth,
        })
      ).status,
    ).toBe(200);
    for (const [method, pathname] of [
      ['GET', `/api/v1/products/${b.productId}`],
      ['POST', `/api/v1/products/${b.productId}/publish`],
      ['POST', `/api/v1/products/${b.productId}/unpublish`],
    ] as const) {
      const answer = await call(replicaA, pathname, { method, headers: writer.auth });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('product_not_found');
    }
  });

  it('refuses a revoked key at once on the replica that revoked and, by the event, on the other', async () => {
    const seller = await sellerWithProduct();
    const key = await createKey(seller.session, ['products:read']);
    expect((await call(replicaA, '/api/v1/products', { headers: key.auth })).status).toBe(200);
    expect((await call(replicaB, '/api/v1/products', { headers: key.auth })).status).toBe(200);

    expect(
      (
        await call(replicaA, `/api/auth/api-keys/${key.id}`, {
          method: 'DELETE',
          headers: seller.session,
        })
      ).status,
    ).toBe(204);
    const refused = await call(replicaA, '/api/v1/products', { headers: key.auth });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
    // Replica B cached the key for 60 s; only api_key.revoked can end it sooner.
    await expect
      .poll(async () => (await call(replicaB, '/api/v1/products', { headers: key.auth })).status, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe(401);
  });

  it('counts requests per key across replicas and answers 429 with Retry-After', async () => {
    const seller = await sellerWithProduct();
    const key = await createKey(seller.session, ['products:read']);
    const other = await createKey(seller.session, ['products:read']);
    // 40 a minute per key, counted in Redis whichever replica answers. A minute boundary may
    // reset the count once mid-loop, hence up to twice the budget before the first refusal.
    let served = 0;
    let limited: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < 81 && !limited; i += 1) {
      const answer = await call(i % 2 ? replicaA : replicaB, '/api/v1/products', {
        headers: key.auth,
      });
      if (answer.status === 429) limited = answer;
      else if (answer.status === 200) served += 1;
    }
    expect(limited).not.toBeNull();
    expect(served).toBeGreaterThanOrEqual(40);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.body.error.code).toBe('rate_limited');
    // Another key of the same seller, from the same address, has its own budget.
    expect((await call(replicaA, '/api/v1/products', { headers: other.auth })).status).toBe(200);
  });

  it('pins Lockdrop-Version and refuses an unknown one in the one error shape', async () => {
    const seller = await sellerWithProduct();
    const key = await createKey(seller.session, ['products:read']);
    const pinned = await call(replicaA, '/api/v1/products', {
      headers: { ...key.auth, 'lockdrop-version': '2026-11-26' },
    });
    expect(pinned.status).toBe(200);
    const unknown = await call(replicaA, '/api/v1/products', {
      headers: { ...key.auth, 'lockdrop-version': '2020-01-01' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('unknown_api_version');
  });

  it('replays a POST with the same Idempotency-Key, refuses it with another body, and runs concurrent duplicates once', async () => {
    const seller = await sellerWithProduct();
    const key = await createKey(seller.session, ['products:write', 'products:read']);
    const idempotencyKey = randomUUID();
    const post = (body: unknown, origin = replicaA) =>
      call(origin, `/api/v1/products/${seller.productId}/publish`, {
        method: 'POST',
        headers: { ...key.auth, 'idempotency-key': idempotencyKey },
        body,
      });
    const [first, second] = await Promise.all([post({}), post({}, replicaB)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const replay = await post({}, replicaB);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.status === 200 ? first.body : second.body);

    // The product changes meanwhile; the replay still answers what the first request did.
    expect(
      (
        await call(replicaA, `/api/v1/products/${seller.productId}/unpublish`, {
          method: 'POST',
          headers: key.auth,
        })
      ).body.status,
    ).toBe('draft');
    expect((await post({})).body.status).toBe('published');
    const mismatch = await post({ note: 'another body' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.code).toBe('idempotency_key_reused');
  });

  it('replays an upload into a product sent again with the same Idempotency-Key: one file, attached once', async () => {
    const seller = await sellerWithProduct();
    const key = await createKey(seller.session, ['files:write', 'products:write', 'products:read']);
    const idempotencyKey = randomUUID();
    // Each send serializes the form anew, with a boundary of its own, as a retrying script's does.
    const upload = async (content: string, origin = replicaA) => {
      const form = new FormData();
      form.append('productId', seller.productId);
      form.append('file', new Blob([new TextEncoder().encode(content)]), 'bonus.txt');
      const response = await fetch(new URL('/api/v1/files', origin), {
        method: 'POST',
        headers: { ...key.auth, 'idempotency-key': idempotencyKey },
        body: form,
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Json,
      };
    };
    const first = await upload('the bonus chapter');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.productId).toBe(seller.productId);
    const again = await upload('the bonus chapter', replicaB);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await upload('another, longer file entirely');
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');

    const product = await call(replicaA, `/api/v1/products/${seller.productId}`, {
      headers: key.auth,
    });
    expect(product.body.files.map((file: { fileId: string }) => file.fileId)).toEqual([
      product.body.fileId,
      first.body.id,
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@lockdrop/auth';
import { connectBus, type Bus } from '@lockdrop/bus';
import { loadConfig } from '@lockdrop/config';
import type { DomainEvent, EventType } from '@lockdrop/contracts';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { createTestDatabase, deleteStreams, testEnv, testNamespace, type TestDatabase } from '@lockdrop/testing';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { buildApp } from '../src/app.js';
import { configSchema } from '../src/config.js';

type FileKind = 'image' | 'pdf' | 'video' | 'audio' | 'document';

export interface Seller {
  id: string;
  token: string;
  auth: { authorization: string };
}

interface StoredUpload {
  id: string;
  ownerId: string;
  fileName: string;
  sizeBytes: number;
  kind: FileKind;
}

/**
 * Identity's JWKS plus a STAND-IN for delivery's GET /api/uploads/:fileId (owner only, others
 * 404), on one local HTTP server. Temporary: delivery is being built in parallel; once its app
 * exists, tests should upload through it instead.
 */
async function startIdentityAndDeliveryStandIn() {
  const keys = await generateKeyPair('EdDSA', { extractable: true });
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'test', alg: 'EdDSA', use: 'sig' };
  const uploads = new Map<string, StoredUpload>();
  const state = { deliveryDown: false, uploadCalls: 0 };

  const server = http.createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const url = new URL(request.url ?? '/', 'http://local');
    if (url.pathname === '/.well-known/jwks.json') return send(200, { keys: [jwk] });
    const match = /^\/api\/uploads\/([^/]+)$/.exec(url.pathname);
    if (!match) return send(404, { error: { code: 'not_found', message: 'no route' } });
    state.uploadCalls += 1;
    if (state.deliveryDown) return send(503, { error: { code: 'unavailable', message: 'down' } });
    const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    void verifyToken(keys.publicKey, token).then((userId) => {
      if (!userId) return send(401, { error: { code: 'unauthorized', message: 'Auth session missing!' } });
      const upload = uploads.get(decodeURIComponent(match[1]!));
      if (!upload || upload.ownerId !== userId) return send(404, { error: { code: 'file_not_found', message: 'File not found' } });
      return send(200, {
        id: upload.id,
        fileName: upload.fileName,
        sizeBytes: upload.sizeBytes,
        contentType: 'application/octet-stream',
        sha256: '0'.repeat(64),
        kind: upload.kind,
        createdAt: new Date().toISOString(),
        previewStatus: 'ready',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, keys, uploads, state, close: () => new Promise((r) => server.close(r)) };
}

async function verifyToken(key: CryptoKey, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE });
    return payload.sub ?? null;
  } catch {
    return null;
  }
}

export interface CatalogHarness {
  app: HttpServer;
  /** A direct pool on catalog's schema, for reading the outbox and setting platform settings. */
  pool: Pool;
  namespace: string;
  stub: Awaited<ReturnType<typeof startIdentityAndDeliveryStandIn>>;
  /** Moves the app's clock; `null` returns to real time. */
  setNow(at: Date | null): void;
  seller(options?: { plan?: string; email?: string }): Promise<Seller>;
  upload(seller: Seller, file?: Partial<Omit<StoredUpload, 'id' | 'ownerId'>>): string;
  /** Outbox events of `type` (in commit order), optionally about one product. */
  outbox<T extends EventType>(type: T, productId?: string): Promise<DomainEvent<T>[]>;
  connectBus(): Promise<Bus>;
  close(): Promise<void>;
}

export async function createCatalogHarness(): Promise<CatalogHarness> {
  const database: TestDatabase = await createTestDatabase();
  const namespace = testNamespace();
  const stub = await startIdentityAndDeliveryStandIn();
  let now: Date | null = null;
  const app = await buildApp(
    loadConfig(configSchema, {
      DATABASE_URL: database.url,
      NATS_URL: testEnv.natsUrl,
      BUS_NAMESPACE: namespace,
      JWKS_URL: `${stub.url}/.well-known/jwks.json`,
      DELIVERY_URL: stub.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    }),
    { clock: () => now ?? new Date() },
  );
  await app.ready();
  const pool = createPool({ connectionString: database.url, schema: 'catalog' });
  const buses: Bus[] = [];

  return {
    app,
    pool,
    namespace,
    stub,
    setNow(at) {
      now = at;
    },
    async seller({ plan = 'free', email } = {}) {
      const id = randomUUID();
      const token = await new SignJWT({ email: email ?? `${id.slice(0, 8)}@example.com`, email_verified: true, plan })
        .setProtectedHeader({ alg: 'EdDSA', kid: 'test' })
        .setSubject(id)
        .setIssuer(ACCESS_TOKEN_ISSUER)
        .setAudience(ACCESS_TOKEN_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime('15m')
        .sign(stub.keys.privateKey);
      return { id, token, auth: { authorization: `Bearer ${token}` } };
    },
    upload(seller, file = {}) {
      const id = randomUUID();
      stub.uploads.set(id, {
        id,
        ownerId: seller.id,
        fileName: file.fileName ?? 'field-recordings.zip',
        sizeBytes: file.sizeBytes ?? 48_000_000,
        kind: file.kind ?? 'document',
      });
      return id;
    },
    async outbox(type, productId) {
      const { rows } = await pool.query<{ payload: DomainEvent }>(
        `SELECT payload FROM outbox WHERE type = $1 AND ($2::text IS NULL OR payload->'data'->>'productId' = $2)
         ORDER BY created_at`,
        [type, productId ?? null],
      );
      return rows.map((row) => row.payload) as DomainEvent<typeof type>[];
    },
    async connectBus() {
      const bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'catalog-test' });
      buses.push(bus);
      return bus;
    },
    async close() {
      await app.close();
      await Promise.all(buses.map((bus) => bus.close()));
      await pool.end();
      await stub.close();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
    },
  };
}

/** A valid create-product body; override any field. */
export function productBody(fileId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Field recordings, vol. 2',
    description: 'Forty minutes of Lagos at dawn.',
    price: '19.99',
    currency: 'USD',
    fileId,
    previewEnabled: true,
    previewBlurPercentage: 60,
    pricing: { type: 'one_time' },
    ...overrides,
  };
}

/** Creates a product through the API and returns its JSON. */
export async function makeProduct(
  harness: CatalogHarness,
  seller: Seller,
  overrides: Record<string, unknown> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on the JSON shape
): Promise<any> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/products',
    headers: seller.auth,
    payload: productBody(harness.upload(seller), overrides),
  });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export async function publish(harness: CatalogHarness, seller: Seller, productId: string): Promise<void> {
  const response = await harness.app.inject({
    method: 'POST',
    url: `/api/products/${productId}/status`,
    headers: seller.auth,
    payload: { status: 'published' },
  });
  if (response.statusCode !== 200) throw new Error(`publish failed: ${response.statusCode} ${response.body}`);
}

export async function waitFor<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectBus, type Bus } from '@lockdrop/bus';
import { loadConfig } from '@lockdrop/config';
import type { ApiKeyScope, DomainEvent, EventType, PlanId, StoreRole } from '@lockdrop/contracts';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { mailboxSchema } from '@lockdrop/mailer';
import { serviceSchemas } from '@lockdrop/service';
import {
  createTestDatabase,
  serviceTestEnv,
  deleteStreams,
  startTestIssuer,
  testEnv,
  testNamespace,
  waitUntil,
  type TestDatabase,
} from '@lockdrop/testing';
import { buildApp as buildDelivery } from '@lockdrop/delivery/src/app.js';
import { configSchema as deliveryConfigSchema } from '@lockdrop/delivery/src/config.js';
import { migrations as deliveryMigrations } from '@lockdrop/delivery/src/db/migrations/index.js';
import { buildApp } from '@lockdrop/catalog/src/app.js';
import { configSchema } from '@lockdrop/catalog/src/config.js';
import { migrations } from '@lockdrop/catalog/src/db/migrations/index.js';

export interface Seller {
  id: string;
  /** The plan the seller's tokens (and their API keys' tokens) carry. */
  plan: PlanId;
  token: string;
  auth: { authorization: string };
}

export interface CatalogHarness {
  app: HttpServer;
  /** A direct pool on catalog's schema, for reading the outbox and setting platform settings. */
  pool: Pool;
  namespace: string;
  /** Env both catalog and delivery were built from; tests may build another catalog from it. */
  env: Record<string, string>;
  /** The real delivery beside catalog, on the same bus (it asks catalog about API uploads). */
  deliveryUrl: string;
  /** Moves the app's clock; `null` returns to real time. */
  setNow(at: Date | null): void;
  seller(options?: { plan?: PlanId; email?: string }): Promise<Seller>;
  /** The token the gateway's `/api/v1` door forwards for one of `seller`'s API keys. */
  apiKey(seller: Seller, scopes: ApiKeyScope[]): Promise<Seller>;
  /** A team member's token acting for `seller`'s store with `role` (issue 28). */
  member(seller: Seller, role: StoreRole): Promise<Seller & { actorId: string }>;
  /** Uploads a file through the real delivery service; returns its id. */
  upload(seller: Seller, file?: { fileName?: string; content?: Buffer }): Promise<string>;
  /** Outbox events of `type` (in commit order), optionally about one product. */
  outbox<T extends EventType>(type: T, productId?: string): Promise<DomainEvent<T>[]>;
  connectBus(): Promise<Bus>;
  close(): Promise<void>;
}

/** `env` overrides catalog's own settings (e.g. FX_MAX_RATE_AGE_HOURS). */
export async function createCatalogHarness(
  env: Record<string, string> = {},
  deps: { newProductId?: () => string } = {},
): Promise<CatalogHarness> {
  const database: TestDatabase = await createTestDatabase({
    schemas: [
      ...serviceSchemas({ name: 'catalog', migrations, sharedSchemas: [mailboxSchema] }),
      ...serviceSchemas({ name: 'delivery', migrations: deliveryMigrations }),
    ],
  });
  const namespace = testNamespace();
  const issuer = await startTestIssuer();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lockdrop-catalog-files-'));
  const shared = serviceTestEnv({ databaseUrl: database.url, namespace, jwksUrl: issuer.jwksUrl });
  // The real delivery service answers "is this upload yours?" (GET /api/uploads/:fileId).
  const delivery = await buildDelivery(
    loadConfig(deliveryConfigSchema, { ...shared, DATA_DIR: dataDir, PREVIEW_CONCURRENCY: '1' }),
  );
  const deliveryUrl = await delivery.listen({ port: 0, host: '127.0.0.1' });
  let now: Date | null = null;
  const catalogEnv = { ...shared, DELIVERY_URL: deliveryUrl, ...env };
  const app = await buildApp(loadConfig(configSchema, catalogEnv), {
    now: () => now ?? new Date(),
    ...deps,
  });
  await app.ready();
  const pool = createPool({ connectionString: database.url, schema: 'catalog' });
  const buses: Bus[] = [];

  return {
    app,
    pool,
    namespace,
    env: catalogEnv,
    deliveryUrl,
    setNow(at) {
      now = at;
    },
    async seller({ plan = 'free', email } = {}) {
      const { id, token, authorization } = await issuer.account({ plan, email });
      return { id, plan, token, auth: { authorization } };
    },
    async apiKey(seller, scopes) {
      const { token, authorization } = await issuer.account({
        id: seller.id,
        plan: seller.plan,
        apiKey: { scopes },
      });
      return { id: seller.id, plan: seller.plan, token, auth: { authorization } };
    },
    async member(seller, role) {
      const actorId = randomUUID();
      const { token, authorization } = await issuer.account({
        id: seller.id,
        plan: seller.plan,
        actor: { id: actorId, role },
      });
      return { id: seller.id, plan: seller.plan, token, auth: { authorization }, actorId };
    },
    async upload(seller, file = {}) {
      const form = new FormData();
      const content = file.content ?? Buffer.from(`bytes of ${randomUUID()}`);
      form.append(
        'file',
        new Blob([new Uint8Array(content)]),
        file.fileName ?? 'field-recordings.txt',
      );
      const response = await fetch(new URL('/api/uploads', deliveryUrl), {
        method: 'POST',
        headers: seller.auth,
        body: form,
      });
      if (response.status !== 201)
        throw new Error(`upload failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
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
      await delivery.close();
      await Promise.all(buses.map((bus) => bus.close()));
      await pool.end();
      await issuer.close();
      await rm(dataDir, { recursive: true, force: true });
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
    },
  };
}

/** A valid create-product body; override any field. */
export function productBody(
  fileId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
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
    payload: productBody(await harness.upload(seller), overrides),
  });
  if (response.statusCode !== 201)
    throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export async function publish(
  harness: CatalogHarness,
  seller: Seller,
  productId: string,
): Promise<void> {
  const response = await harness.app.inject({
    method: 'POST',
    url: `/api/products/${productId}/status`,
    headers: seller.auth,
    payload: { status: 'published' },
  });
  if (response.statusCode !== 200)
    throw new Error(`publish failed: ${response.statusCode} ${response.body}`);
}

export { waitUntil };

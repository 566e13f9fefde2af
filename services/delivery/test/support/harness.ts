import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTokenVerifier } from '@lockdrop/auth';
import { connectBus, type Bus } from '@lockdrop/bus';
import { loadConfig } from '@lockdrop/config';
import {
  createEvent,
  type ApiKeyScope,
  type DomainEvent,
  type EventData,
  type PlanId,
} from '@lockdrop/contracts';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { serviceSchemas } from '@lockdrop/service';
import {
  createTestDatabase,
  serviceTestEnv,
  deleteStreams,
  startTestIssuer,
  testEnv,
  testNamespace,
  type TestDatabase,
} from '@lockdrop/testing';
import { buildApp } from '../../src/app.js';
import { configSchema } from '../../src/config.js';
import { migrations } from '../../src/db/migrations/index.js';

export interface TestUser {
  id: string;
  email: string;
  plan: PlanId;
  /** `authorization` header value. */
  auth: string;
}

/** One isolated delivery service: its own database, bus namespace, data directory and signing key. */
export interface DeliveryHarness {
  app: HttpServer;
  /** A second replica of this delivery: the same database, bus namespace and data directory. */
  replica(): Promise<HttpServer>;
  /** The delivery schema, to look at what the service recorded. */
  db: Pool;
  dataDir: string;
  /** Added to the service's clock (link expiry, receipt sessions). */
  clock: { offsetMs: number };
  /** `download.completed` events as they arrived on the bus. */
  completedDownloads: DomainEvent<'download.completed'>[];
  user(plan?: PlanId, identity?: { email?: string; emailVerified?: boolean }): Promise<TestUser>;
  /** The token the gateway's `/api/v1` door forwards for one of `user`'s API keys. */
  apiKey(user: TestUser, scopes: ApiKeyScope[]): Promise<TestUser>;
  /** The bus as another service sees it: to ask delivery what payments asks (commands). */
  bus: Bus;
  /** Publishes any event as its producer would (payments' purchase events, for instance). */
  publish(event: DomainEvent): Promise<void>;
  /** Publishes a product event as catalog would. */
  publishProduct(
    type: 'product.created' | 'product.updated' | 'product.published' | 'product.unpublished',
    data: EventData<'product.updated'>,
  ): Promise<void>;
  publishProductDeleted(productId: string, ownerId: string): Promise<void>;
  /** Regular files under the data directory, temporary ones included. */
  storedFiles(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startDelivery(env: Record<string, string> = {}): Promise<DeliveryHarness> {
  const database: TestDatabase = await createTestDatabase({
    schemas: serviceSchemas({ name: 'delivery', migrations }),
  });
  const namespace = testNamespace();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lockdrop-delivery-'));
  const issuer = await startTestIssuer();
  const config = loadConfig(configSchema, {
    ...serviceTestEnv({ databaseUrl: database.url, namespace }),
    DATA_DIR: dataDir,
    ...env,
  });
  const clock = { offsetMs: 0 };
  const app = await buildApp(config, {
    verifier: createTokenVerifier({ jwks: issuer.jwks }),
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  await app.ready();
  const testBus: Bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'delivery-test' });
  const db = createPool({ connectionString: database.url, schema: 'delivery', max: 3 });
  const completedDownloads: DomainEvent<'download.completed'>[] = [];
  const observer = await testBus.subscribe({
    consumer: 'test.downloads',
    filter: 'download.completed',
    pool: db,
    handler: async (event) => {
      completedDownloads.push(event);
    },
  });

  const replicas: HttpServer[] = [];
  return {
    app,
    async replica() {
      const replica = await buildApp(config, {
        verifier: createTokenVerifier({ jwks: issuer.jwks }),
        now: () => new Date(Date.now() + clock.offsetMs),
      });
      await replica.ready();
      replicas.push(replica);
      return replica;
    },
    db,
    dataDir,
    clock,
    completedDownloads,
    async user(plan = 'free', identity = {}) {
      const { id, email, authorization } = await issuer.account({
        plan,
        email: identity.email,
        emailVerified: identity.emailVerified,
      });
      return { id, email, plan, auth: authorization };
    },
    async apiKey(user, scopes) {
      const { authorization } = await issuer.account({
        id: user.id,
        email: user.email,
        plan: user.plan,
        apiKey: { scopes },
      });
      return { ...user, auth: authorization };
    },
    bus: testBus,
    async publish(event) {
      await testBus.publish(event);
    },
    async publishProduct(type, data) {
      await testBus.publish(createEvent(type, data, { correlationId: `test-${randomUUID()}` }));
    },
    async publishProductDeleted(productId, ownerId) {
      await testBus.publish(
        createEvent('product.deleted', { productId, ownerId }, { correlationId: 'test' }),
      );
    },
    async storedFiles() {
      const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name));
    },
    async close() {
      await observer.stop();
      // A test that reads only a download's status leaves its body unread: that response is
      // still streaming (held by backpressure) and would keep close() waiting forever.
      for (const server of [app, ...replicas]) {
        server.server.closeAllConnections();
        await server.close();
      }
      await testBus.close();
      await db.end();
      await issuer.close();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A product as catalog describes it in its events. */
export function makeProduct(
  overrides: Partial<EventData<'product.updated'>> & { ownerId: string; fileId: string },
): EventData<'product.updated'> {
  return {
    productId: randomUUID(),
    title: 'Sunset pack',
    description: null,
    priceMinor: 1500,
    currency: 'USD',
    pricing: { type: 'one_time' },
    status: 'draft',
    fileName: 'file.bin',
    fileSizeBytes: 1,
    previewEnabled: true,
    previewBlurPercentage: 50,
    ...overrides,
  };
}

export { waitFor } from '@lockdrop/testing';

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
export function multipart(
  fileName: string,
  content: Buffer,
  { field = 'file', clientType = 'application/octet-stream' } = {},
) {
  const boundary = `----lockdrop${randomUUID().replaceAll('-', '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${clientType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    boundary,
    head,
    tail,
    body: Buffer.concat([head, content, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Uploads `content` as `seller` through POST /api/uploads; returns the stored file's record. */
export async function uploadFile(
  delivery: DeliveryHarness,
  seller: TestUser,
  fileName: string,
  content: Buffer,
): Promise<{ id: string; kind: string }> {
  const form = multipart(fileName, content);
  const response = await delivery.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { 'content-type': form.contentType, authorization: seller.auth },
    payload: form.body,
  });
  if (response.statusCode !== 201)
    throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string; kind: string };
}

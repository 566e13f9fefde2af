import { randomUUID } from 'node:crypto';
import { createEvent, type DomainEvent } from '@lockdrop/contracts';
import { createPool, migrate, type Migration, type Pool } from '@lockdrop/db';
import {
  createTestDatabase,
  deleteStreams,
  testEnv,
  testNamespace,
  type TestDatabase,
} from '@lockdrop/testing';
import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { purchasePaidData, waitUntil } from '@lockdrop/testing';
import { busMigrations, connectBus, type Bus } from '../src/index.js';

export function makePurchasePaid(
  overrides: { correlationId?: string; id?: string } = {},
): DomainEvent<'purchase.paid'> {
  return createEvent(
    'purchase.paid',
    purchasePaidData({ amountMinor: 2_500, feePlatformMinor: 125, feeProcessorMinor: 35 }),
    {
      correlationId: overrides.correlationId ?? randomUUID(),
      ...(overrides.id ? { id: overrides.id } : {}),
    },
  );
}

export function makeProductEvent(type: 'product.created' | 'product.updated'): DomainEvent {
  return createEvent(
    type,
    {
      productId: randomUUID(),
      ownerId: randomUUID(),
      title: 'Field recordings, vol. 2',
      description: null,
      priceMinor: 900,
      currency: 'EUR',
      pricing: { type: 'one_time' },
      status: 'draft',
      fileId: randomUUID(),
      fileName: 'field-recordings-vol2.zip',
      fileSizeBytes: 48_000_000,
      previewEnabled: false,
      previewBlurPercentage: 50,
    },
    { correlationId: randomUUID() },
  );
}

/** One test file's world: its own database, schema, bus namespace and a raw NATS client for inspection. */
export interface Harness {
  namespace: string;
  schema: string;
  db: TestDatabase;
  pool: Pool;
  bus: Bus;
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  teardown(): Promise<void>;
}

export async function createHarness(extraMigrations: Migration[] = []): Promise<Harness> {
  const namespace = testNamespace();
  const schema = 'svc';
  const db = await createTestDatabase();
  const pool = createPool({ connectionString: db.url, schema });
  await migrate(pool, schema, [...busMigrations, ...extraMigrations]);
  const bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'bus-test' });
  const nc = await connect({ servers: testEnv.natsUrl });
  const jsm = await jetstreamManager(nc);
  return {
    namespace,
    schema,
    db,
    pool,
    bus,
    nc,
    js: jetstream(nc),
    jsm,
    async teardown() {
      await bus.close();
      await nc.close();
      await pool.end();
      await db.drop();
      await deleteStreams(testEnv.natsUrl, namespace);
    },
  };
}

/** Every message stored in `stream` (optionally on one subject), read through an ordered consumer. */
export async function storedMessages(
  js: JetStreamClient,
  jsm: JetStreamManager,
  stream: string,
  subject?: string,
): Promise<JsMsg[]> {
  const { state } = await jsm.streams.info(stream);
  if (state.messages === 0) return [];
  const consumer = await js.consumers.get(stream, subject ? { filter_subjects: subject } : {});
  const messages: JsMsg[] = [];
  for (;;) {
    const msg = await consumer.next({ expires: 1_000 });
    if (!msg) break;
    messages.push(msg);
    if (msg.info.pending === 0) break;
  }
  await consumer.delete().catch(() => undefined);
  return messages;
}

/** Copies of the event with `eventId` stored on the events stream. */
export async function storedCopies(
  harness: Harness,
  stream: string,
  eventId: string,
): Promise<number> {
  const messages = await storedMessages(harness.js, harness.jsm, stream);
  return messages.filter((msg) => msg.json<DomainEvent>().id === eventId).length;
}

export { waitUntil };

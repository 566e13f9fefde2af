import { randomUUID } from 'node:crypto';
import { connectBus, eventSubject, type Bus } from '@lockdrop/bus';
import { loadConfig } from '@lockdrop/config';
import {
  createEvent,
  type ApiKeyMode,
  type ApiKeyScope,
  type DomainEvent,
  type EventData,
  type EventType,
} from '@lockdrop/contracts';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { serviceSchemas } from '@lockdrop/service';
import {
  createTestDatabase,
  serviceTestEnv,
  deleteStreams,
  productSnapshotData,
  purchasePaidData,
  purchaseRefundedData,
  startTestIssuer,
  testEnv,
  testNamespace,
  waitFor,
} from '@lockdrop/testing';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { buildApp } from '../src/app.js';
import { configSchema } from '../src/config.js';
import { migrations } from '../src/db/migrations/index.js';

/** "Today" of every test: periods are computed from it, events are dated relative to it. */
export const TODAY = new Date('2025-06-30T12:00:00Z');
export const daysAgo = (days: number): string =>
  new Date(TODAY.getTime() - days * 86_400_000).toISOString();

export interface Seller {
  id: string;
  /** `authorization` header value. */
  auth: string;
}

const CONSUMER_OF: Partial<Record<EventType, string>> = {
  'product.created': 'analytics.products-created',
  'product.updated': 'analytics.products-updated',
  'product.deleted': 'analytics.products-deleted',
  'product.viewed': 'analytics.views',
  'checkout.started': 'analytics.checkouts-started',
  'purchase.paid': 'analytics.purchases-paid',
  'purchase.refunded': 'analytics.purchases-refunded',
  'download.completed': 'analytics.downloads',
};

/**
 * One analytics service on its own database and bus namespace, verifying tokens against a JWKS
 * served over real HTTP as identity serves it. Events go over the real bus, as producers send them.
 */
export async function startAnalytics(options: { readReplica?: boolean } = {}) {
  const schemas = serviceSchemas({ name: 'analytics', migrations });
  const database = await createTestDatabase({ schemas });
  // A second database with the same schema stands in for a streaming replica that lags.
  const replica = options.readReplica ? await createTestDatabase({ schemas }) : undefined;
  const namespace = testNamespace();
  const issuer = await startTestIssuer();

  const config = loadConfig(configSchema, {
    ...serviceTestEnv({ databaseUrl: database.url, namespace, jwksUrl: issuer.jwksUrl }),
    ...(replica ? { DATABASE_READ_URL: replica.url } : {}),
  });
  const app: HttpServer = await buildApp(config, { now: () => TODAY });
  await app.ready();
  const bus: Bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'analytics-test' });
  const db: Pool = createPool({ connectionString: database.url, schema: 'analytics', max: 2 });
  const rawNats = await connect({ servers: testEnv.natsUrl });

  const processed = async (consumer: string, eventId: string) =>
    (
      await db.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [
        consumer,
        eventId,
      ])
    ).rowCount === 1;

  /**
   * Publishes like the relay does and waits until analytics' consumer has committed the event.
   * Events occur at TODAY unless told otherwise.
   */
  async function publish<T extends EventType>(
    type: T,
    data: EventData<T>,
    options: { occurredAt?: string } = {},
  ): Promise<DomainEvent<T>> {
    const event = createEvent(type, data, {
      correlationId: `test-${randomUUID()}`,
      occurredAt: new Date(options.occurredAt ?? TODAY),
    });
    await bus.publish(event);
    await settled(event);
    return event;
  }

  async function settled(event: DomainEvent): Promise<void> {
    const consumer = CONSUMER_OF[event.type];
    if (!consumer) throw new Error(`no analytics consumer for ${event.type}`);
    await waitFor(() => processed(consumer, event.id));
  }

  return {
    app,
    db,
    replicaUrl: replica?.url,
    publish,
    settled,
    /**
     * Publishes the same message again without a Nats-Msg-Id, so JetStream cannot drop it and the
     * consumer really receives the event twice (what a relay retry after the duplicate window does).
     */
    async redeliver(event: DomainEvent): Promise<void> {
      await jetstream(rawNats).publish(eventSubject(namespace, event.type), JSON.stringify(event));
    },
    async seller(): Promise<Seller> {
      const { id, authorization } = await issuer.account();
      return { id, auth: authorization };
    },
    /** The token the gateway's `/api/v1` door forwards for one of `seller`'s API keys. */
    async apiKey(
      seller: Seller,
      scopes: ApiKeyScope[],
      mode: ApiKeyMode = 'live',
    ): Promise<Seller> {
      const { authorization } = await issuer.account({ id: seller.id, apiKey: { scopes, mode } });
      return { id: seller.id, auth: authorization };
    },
    async get<T>(url: string, seller?: Seller): Promise<{ status: number; body: T }> {
      const response = await app.inject({
        url,
        headers: seller ? { authorization: seller.auth } : {},
      });
      return { status: response.statusCode, body: response.json() as T };
    },
    async close() {
      await app.close();
      await bus.close();
      await rawNats.close();
      await db.end();
      await issuer.close();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
      await replica?.drop();
    },
  };
}

export type AnalyticsHarness = Awaited<ReturnType<typeof startAnalytics>>;

/** A product as catalog describes it in its events. */
export const makeProduct = (
  overrides: Partial<EventData<'product.created'>> & { ownerId: string },
): EventData<'product.created'> => productSnapshotData(overrides);

/** A paid purchase of `product` as payments announces it, paid "today". */
export function makePaid(
  product: { productId: string; ownerId: string },
  overrides: Partial<EventData<'purchase.paid'>> = {},
): EventData<'purchase.paid'> {
  return purchasePaidData({
    productId: product.productId,
    sellerId: product.ownerId,
    paidAt: daysAgo(0),
    ...overrides,
  });
}

export const refundOf = (
  paid: EventData<'purchase.paid'>,
  refundedAt = daysAgo(0),
): EventData<'purchase.refunded'> => purchaseRefundedData(paid, { refundedAt });

export const view = (
  productId: string,
  day = daysAgo(0).slice(0, 10),
  visitorId = randomUUID(),
): EventData<'product.viewed'> => ({
  productId,
  visitorId,
  day,
  referrer: null,
});

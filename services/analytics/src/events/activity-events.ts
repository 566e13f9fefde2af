import type { Bus, Subscription } from '@lockdrop/bus';
import type { DomainEvent, EventType } from '@lockdrop/contracts';
import type { Pool, PoolClient } from '@lockdrop/db';
import {
  ingestCheckoutStarted,
  ingestDownload,
  ingestPurchasePaid,
  ingestPurchaseRefunded,
  ingestView,
} from '../domain/ingest.js';

type Handler = (event: DomainEvent, tx: PoolClient) => Promise<void>;

const as =
  <T extends EventType>(
    ingest: (event: DomainEvent<T>, tx: PoolClient) => Promise<void>,
  ): Handler =>
  (event, tx) =>
    ingest(event as DomainEvent<T>, tx);

const CONSUMERS: { consumer: string; filter: EventType; handler: Handler }[] = [
  { consumer: 'analytics.views', filter: 'product.viewed', handler: as(ingestView) },
  {
    consumer: 'analytics.checkouts-started',
    filter: 'checkout.started',
    handler: as(ingestCheckoutStarted),
  },
  {
    consumer: 'analytics.purchases-paid',
    filter: 'purchase.paid',
    handler: as(ingestPurchasePaid),
  },
  {
    consumer: 'analytics.purchases-refunded',
    filter: 'purchase.refunded',
    handler: as(ingestPurchaseRefunded),
  },
  { consumer: 'analytics.downloads', filter: 'download.completed', handler: as(ingestDownload) },
];

/** Raw events and rollups from views, checkouts, payments, refunds and downloads. */
export async function subscribeToActivityEvents({
  bus,
  pool,
}: {
  bus: Bus;
  pool: Pool;
}): Promise<Subscription[]> {
  return Promise.all(CONSUMERS.map((options) => bus.subscribe({ ...options, pool })));
}

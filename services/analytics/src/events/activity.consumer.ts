import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import {
  ingestCheckoutsStarted,
  ingestDownloads,
  ingestPurchasesPaid,
  ingestPurchaseRefunded,
  ingestViews,
} from '../domain/ingest.js';

/** Raw events and rollups from views, checkouts, payments, refunds and downloads. */
export async function subscribeToActivityEvents({
  bus,
  pool,
}: {
  bus: Bus;
  pool: Pool;
}): Promise<Subscription[]> {
  return Promise.all([
    bus.subscribe({
      consumer: 'analytics.views',
      filter: 'product.viewed',
      pool,
      batchHandler: ingestViews,
    }),
    bus.subscribe({
      consumer: 'analytics.checkouts-started',
      filter: 'checkout.started',
      pool,
      batchHandler: ingestCheckoutsStarted,
    }),
    bus.subscribe({
      consumer: 'analytics.purchases-paid',
      filter: 'purchase.paid',
      pool,
      batchHandler: ingestPurchasesPaid,
    }),
    bus.subscribe({
      consumer: 'analytics.purchases-refunded',
      filter: 'purchase.refunded',
      pool,
      handler: ingestPurchaseRefunded,
    }),
    bus.subscribe({
      consumer: 'analytics.downloads',
      filter: 'download.completed',
      pool,
      batchHandler: ingestDownloads,
    }),
  ]);
}

import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { applyProductSnapshot, markProductDeleted } from '../db/products.repo.js';

/**
 * One durable consumer per type rather than `product.*`, which would also pull every
 * `product.viewed` through the owner model only to be ignored.
 */
const SNAPSHOT_EVENTS = [
  'product.created',
  'product.updated',
  'product.published',
  'product.unpublished',
] as const;

/** Keeps owner and title of every product, so figures are filtered to the seller's own. */
export async function subscribeToProductEvents({
  bus,
  pool,
}: {
  bus: Bus;
  pool: Pool;
}): Promise<Subscription[]> {
  return Promise.all([
    ...SNAPSHOT_EVENTS.map((type) =>
      bus.subscribe({
        consumer: `analytics.${type.replace('product.', 'products-')}`,
        filter: type,
        pool,
        handler: (event, tx) => {
          return applyProductSnapshot(tx, event.data, event.occurredAt);
        },
      }),
    ),
    bus.subscribe({
      consumer: 'analytics.products-deleted',
      filter: 'product.deleted',
      pool,
      handler: (event, tx) => {
        const { data, occurredAt } = event;
        return markProductDeleted(tx, data.productId, data.ownerId, occurredAt);
      },
    }),
  ]);
}

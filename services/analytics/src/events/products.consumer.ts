import type { Bus, Subscription } from '@lockdrop/bus';
import { productSnapshotEventTypes } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import { applyProductSnapshot, markProductDeleted } from '../db/products.repo.js';

/** Keeps owner and title of every product, so figures are filtered to the seller's own. */
export async function subscribeToProductEvents({
  bus,
  pool,
}: {
  bus: Bus;
  pool: Pool;
}): Promise<Subscription[]> {
  return Promise.all([
    ...productSnapshotEventTypes.map((type) =>
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

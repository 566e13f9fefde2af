import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { recordStorefrontViews } from '../domain/product-views.js';

/** Counts the views of reads the gateway answered from its cache; each batch is applied once. */
export function subscribeToStorefrontViews(bus: Bus, pool: Pool): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'catalog.storefront-views',
    filter: 'storefront.products_viewed',
    pool,
    async handler(event, tx) {
      if (event.type !== 'storefront.products_viewed') return;
      await recordStorefrontViews(tx, event.data);
    },
  });
}

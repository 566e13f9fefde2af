import type { Bus, Subscription } from '@lockdrop/bus';
import { productSnapshotEventTypes } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import {
  markProductDeleted,
  upsertExchangeRates,
  upsertProduct,
  upsertSellerEmail,
  upsertSellerBrand,
  upsertSellerDomain,
  upsertSellerPlan,
} from './read-models.repository.js';

/**
 * What checkout needs from other services, kept locally from their events so a buyer never
 * waits on catalog or identity: products (price, status, file), sellers' plans, brands and
 * custom domains, FX rates.
 */
export async function subscribeToReadModelEvents(bus: Bus, pool: Pool): Promise<Subscription[]> {
  return Promise.all([
    // One durable per product event (nats-server 2.9 filters on one subject), so the busiest
    // event on the bus, product.viewed, never reaches payments. Order across them does not
    // matter: the read model keeps the newest write and deletions are tombstones.
    ...productSnapshotEventTypes.map((type) =>
      bus.subscribe({
        consumer: `payments.${type.replace('product.', 'products-')}`,
        filter: type,
        pool,
        handler: (event, tx) => upsertProduct(tx, event.data, event.occurredAt),
      }),
    ),
    bus.subscribe({
      consumer: 'payments.products-deleted',
      filter: 'product.deleted',
      pool,
      handler: async (event, tx) => {
        const data = event.data;
        await markProductDeleted(tx, data.productId, data.ownerId, event.occurredAt);
      },
    }),
    bus.subscribe({
      consumer: 'payments.sellers',
      filter: 'profile.updated',
      pool,
      handler: async (event, tx) => {
        const data = event.data;
        await upsertSellerPlan(tx, data.userId, data.plan, event.occurredAt);
        // The store's current owner's address (issue 28); older events name only the account's.
        const contactEmail = data.contactEmail ?? data.email;
        await upsertSellerEmail(tx, data.userId, contactEmail, data.plan, event.occurredAt);
      },
    }),
    bus.subscribe({
      consumer: 'payments.plans',
      filter: 'plan.changed',
      pool,
      handler: async (event, tx) => {
        const data = event.data;
        await upsertSellerPlan(tx, data.userId, data.plan, event.occurredAt);
      },
    }),
    bus.subscribe({
      consumer: 'payments.brands',
      filter: 'store.brand_updated',
      pool,
      handler: async (event, tx) => {
        if (event.type === 'store.brand_updated')
          await upsertSellerBrand(tx, event.data, event.occurredAt);
      },
    }),
    bus.subscribe({
      consumer: 'payments.domains',
      filter: 'store.domain_updated',
      pool,
      handler: async (event, tx) => {
        if (event.type === 'store.domain_updated')
          await upsertSellerDomain(tx, event.data, event.occurredAt);
      },
    }),
    bus.subscribe({
      consumer: 'payments.fx',
      filter: 'fx.rates.updated',
      pool,
      handler: async (event, tx) => {
        const data = event.data;
        await upsertExchangeRates(tx, data.rates, event.occurredAt);
      },
    }),
  ]);
}

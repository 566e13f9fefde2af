import type { Bus, Subscription } from '@lockdrop/bus';
import type { DomainEvent } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import {
  markProductDeleted,
  upsertExchangeRates,
  upsertProduct,
  upsertSellerPlan,
} from '../db/read-models.repo.js';

/**
 * What checkout needs from other services, kept locally from their events so a buyer never
 * waits on catalog or identity: products (price, status, file), sellers' plans, FX rates.
 */
export async function subscribeReadModels(bus: Bus, pool: Pool): Promise<Subscription[]> {
  return Promise.all([
    bus.subscribe({
      consumer: 'payments.products',
      filter: 'product.*',
      pool,
      handler: async (event, tx) => {
        switch (event.type) {
          case 'product.created':
          case 'product.updated':
          case 'product.published':
          case 'product.unpublished': {
            const data = (event as DomainEvent<'product.published'>).data;
            await upsertProduct(tx, data, event.occurredAt);
            return;
          }
          case 'product.deleted': {
            const data = (event as DomainEvent<'product.deleted'>).data;
            await markProductDeleted(tx, data.productId, data.ownerId, event.occurredAt);
            return;
          }
          default:
            return;
        }
      },
    }),
    bus.subscribe({
      consumer: 'payments.sellers',
      filter: 'profile.updated',
      pool,
      handler: async (event, tx) => {
        const data = (event as DomainEvent<'profile.updated'>).data;
        await upsertSellerPlan(tx, data.userId, data.plan, event.occurredAt);
      },
    }),
    bus.subscribe({
      consumer: 'payments.plans',
      filter: 'plan.changed',
      pool,
      handler: async (event, tx) => {
        const data = (event as DomainEvent<'plan.changed'>).data;
        await upsertSellerPlan(tx, data.userId, data.plan, event.occurredAt);
      },
    }),
    bus.subscribe({
      consumer: 'payments.fx',
      filter: 'fx.rates.updated',
      pool,
      handler: async (event, tx) => {
        const data = (event as DomainEvent<'fx.rates.updated'>).data;
        await upsertExchangeRates(tx, data.rates, event.occurredAt);
      },
    }),
  ]);
}

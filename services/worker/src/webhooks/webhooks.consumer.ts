import type { Bus, EventFilter, Subscription } from '@lockdrop/bus';
import type { DomainEvent } from '@lockdrop/contracts';
import type { Pool, PoolClient } from '@lockdrop/db';
import type { DeliveryQueue } from './deliveries.jobs.js';
import { toWebhookEvent } from './payloads.js';
import { newDeliveryId } from './webhooks.js';
import { insertDelivery, subscribedEndpoints } from './webhooks.repository.js';

/**
 * One durable per event family (nats-server 2.9 takes one filter per consumer). Products use a
 * durable per type: `product.*` would pull every `product.viewed` through here to be ignored.
 */
const FILTERS: EventFilter[] = [
  'purchase.*',
  'subscription.*',
  'payout.*',
  'product.created',
  'product.updated',
  'product.files_added',
];

/**
 * Domain events become deliveries: one row per (endpoint, event id) — a redelivered event
 * finds its rows and adds none — then a job per new row.
 */
export function subscribeToWebhookEvents({
  bus,
  pool,
  deliveries,
}: {
  bus: Bus;
  pool: Pool;
  deliveries: DeliveryQueue;
}): Promise<Subscription[]> {
  const handler = async (event: DomainEvent, tx: PoolClient) => {
    const webhookEvent = toWebhookEvent(event);
    if (!webhookEvent) return;
    const endpoints = await subscribedEndpoints(
      tx,
      webhookEvent.sellerId,
      webhookEvent.type,
      webhookEvent.mode,
    );
    for (const endpoint of endpoints) {
      const delivery = await insertDelivery(tx, {
        id: newDeliveryId(),
        endpoint_id: endpoint.id,
        seller_id: webhookEvent.sellerId,
        event_id: event.id,
        event_type: webhookEvent.type,
        resource_id: webhookEvent.resourceId,
        payload: webhookEvent.payload,
      });
      if (delivery) await deliveries.enqueue(delivery);
    }
  };
  return Promise.all(
    FILTERS.map((filter) =>
      bus.subscribe({
        consumer: `worker.webhooks-${filter.replace('.*', '').replaceAll('.', '-').replaceAll('_', '-')}`,
        filter,
        pool,
        handler: handler as (event: DomainEvent, tx: PoolClient) => Promise<void>,
      }),
    ),
  );
}

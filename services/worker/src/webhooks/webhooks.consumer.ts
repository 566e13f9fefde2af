import type { Bus, EventFilter, Subscription } from '@lockdrop/bus';
import type { DomainEvent } from '@lockdrop/contracts';
import type { Pool, PoolClient } from '@lockdrop/db';
import type { DeliveryQueue } from './deliveries.jobs.js';
import { toWebhookEvent } from './payloads.js';
import { newDeliveryId } from './webhooks.js';
import { enabledEndpointsBySeller, hears, insertDelivery } from './webhooks.repository.js';

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
 * finds its rows and adds none — then a job per new row. Events come in the bus's batches (a
 * flash sale's `purchase.paid` arrive together): one statement reads the endpoints of every
 * seller in the batch, so a sale to a seller without endpoints costs no statement of its own.
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
  const batchHandler = async (events: DomainEvent[], tx: PoolClient) => {
    const webhookEvents = events.flatMap((event) => {
      const webhookEvent = toWebhookEvent(event);
      return webhookEvent ? [{ event, webhookEvent }] : [];
    });
    if (webhookEvents.length === 0) return;
    const endpointsBySeller = await enabledEndpointsBySeller(tx, [
      ...new Set(webhookEvents.map(({ webhookEvent }) => webhookEvent.sellerId)),
    ]);
    // In the batch's order, so deliveries of one resource keep the order of its events.
    for (const { event, webhookEvent } of webhookEvents) {
      for (const endpoint of endpointsBySeller.get(webhookEvent.sellerId) ?? []) {
        if (!hears(endpoint, webhookEvent.type, webhookEvent.mode)) continue;
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
    }
  };
  return Promise.all(
    FILTERS.map((filter) =>
      bus.subscribe({
        consumer: `worker.webhooks-${filter.replace('.*', '').replaceAll('.', '-').replaceAll('_', '-')}`,
        filter,
        pool,
        batchHandler: batchHandler as (events: DomainEvent[], tx: PoolClient) => Promise<void>,
      }),
    ),
  );
}

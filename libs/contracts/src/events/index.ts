import type { z } from 'zod';
import { catalogEvents } from './catalog.js';
import { deliveryEvents } from './delivery.js';
import { gatewayEvents } from './gateway.js';
import { identityEvents } from './identity.js';
import { paymentsEvents } from './payments.js';
import { workerEvents } from './worker.js';

/**
 * An event's current version and data schema. A change a consumer could not read is a new
 * version; `upcasters` turn each earlier version's data into the current one, so events already
 * in the stream or in an outbox stay readable and handlers see one shape.
 */
export interface EventDefinition {
  version: number;
  schema: z.ZodType;
  upcasters?: Readonly<Record<number, (data: unknown) => unknown>>;
}

/** The registry of every event on the bus: type → current version and data schema. */
export const events = {
  ...identityEvents,
  ...catalogEvents,
  ...deliveryEvents,
  ...paymentsEvents,
  ...workerEvents,
  ...gatewayEvents,
} as const satisfies Record<string, EventDefinition>;

export type EventType = keyof typeof events;

/**
 * Who publishes which events: each service's events live in its own file, and only that
 * service may publish them — the bus's NATS permissions (libs/bus permissions.ts) are built from
 * this, so `purchase.paid` can come from payments alone.
 */
export const eventPublishers = {
  identity: Object.keys(identityEvents),
  catalog: Object.keys(catalogEvents),
  delivery: Object.keys(deliveryEvents),
  payments: Object.keys(paymentsEvents),
  worker: Object.keys(workerEvents),
  gateway: Object.keys(gatewayEvents),
} as {
  identity: (keyof typeof identityEvents)[];
  catalog: (keyof typeof catalogEvents)[];
  delivery: (keyof typeof deliveryEvents)[];
  payments: (keyof typeof paymentsEvents)[];
  worker: (keyof typeof workerEvents)[];
  gateway: (keyof typeof gatewayEvents)[];
};
export type EventData<T extends EventType> = z.infer<(typeof events)[T]['schema']>;

/** A fully typed event as it travels on the bus. */
export interface DomainEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  version: number;
  occurredAt: string;
  correlationId: string;
  data: EventData<T>;
}

export const eventTypes = Object.keys(events) as EventType[];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(events, type);
}

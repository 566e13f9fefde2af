import type { z } from 'zod';
import { catalogEvents } from './catalog.js';
import { deliveryEvents } from './delivery.js';
import { gatewayEvents } from './gateway.js';
import { identityEvents } from './identity.js';
import { paymentsEvents } from './payments.js';
import { workerEvents } from './worker.js';

/** The registry of every event on the bus: type → current version and data schema. */
export const events = {
  ...identityEvents,
  ...catalogEvents,
  ...deliveryEvents,
  ...paymentsEvents,
  ...workerEvents,
  ...gatewayEvents,
} as const;

export type EventType = keyof typeof events;
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

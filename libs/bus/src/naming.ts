import type { DomainEvent, EventType } from '@lockdrop/contracts';

/**
 * Every stream and subject the bus touches is derived from one namespace, so a test file can
 * take a random one and never see another file's messages. Subjects are dot-separated tokens
 * and stream names may not contain dots, hence the restricted alphabet.
 */
export function assertNamespace(namespace: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(namespace)) throw new Error(`invalid bus namespace: ${namespace}`);
  return namespace;
}

export function streamNames(namespace: string): { events: string; deadLetters: string } {
  const prefix = assertNamespace(namespace).toUpperCase();
  return { events: `${prefix}_EVENTS`, deadLetters: `${prefix}_DLQ` };
}

export function eventSubject(namespace: string, type: string): string {
  return `${namespace}.events.${type}`;
}

export function commandSubject(namespace: string, command: string): string {
  return `${namespace}.commands.${command}`;
}

/**
 * Where a NATS user's replies arrive (request/reply, JetStream acks and pulls): its own prefix
 * instead of the shared `_INBOX`, so its permissions can let it subscribe to its inbox alone.
 */
export function inboxPrefix(user: string): string {
  return `_INBOX_${user}`;
}

export function deadLetterSubject(namespace: string, consumer: string): string {
  return `${namespace}.dlq.${consumer}`;
}

type EventTypePrefix = EventType extends `${infer Prefix}.${string}` ? Prefix : never;

/** One event type, or every type under its first token: `product.*`, `fx.*` (matches `fx.rates.updated`). */
export type EventFilter = EventType | `${EventTypePrefix}.*`;

/** The event types a filter lets through: `subscription.*` → every `subscription.…` type. */
export type TypesMatching<F extends EventFilter> = F extends `${infer Prefix}.*`
  ? Extract<EventType, `${Prefix}.${string}`>
  : Extract<F, EventType>;

/** What a handler subscribed with filter F receives: a union discriminated by `type`. */
export type EventMatching<F extends EventFilter> =
  TypesMatching<F> extends infer T ? (T extends EventType ? DomainEvent<T> : never) : never;

/**
 * `prefix.*` becomes `prefix.>` because event types may have more than two tokens
 * (`fx.rates.updated`); a NATS `*` would silently skip those.
 */
export function filterSubject(namespace: string, filter: EventFilter): string {
  const subjectFilter = filter.endsWith('.*') ? `${filter.slice(0, -2)}.>` : filter;
  return eventSubject(namespace, subjectFilter);
}

/** Consumer names are dotted like event types (`delivery.entitlements`); durable names may not contain dots. */
export function assertConsumerName(consumer: string): string {
  if (!/^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/.test(consumer))
    throw new Error(`invalid consumer name: ${consumer}`);
  return consumer;
}

export function durableName(consumer: string): string {
  return assertConsumerName(consumer).replaceAll('.', '_');
}

import type { DomainEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

/**
 * SQL for the NOTIFY channel of the current schema. Channels are per database, not per schema,
 * and several services may share one database: the schema in the name keeps one service's
 * writes from waking another's relay.
 */
export const outboxChannelSql = `'outbox_' || current_schema()`;

/**
 * Records `event` for publication as part of the caller's transaction: the event exists if and
 * only if the change it describes was committed. The NOTIFY is likewise delivered only on
 * commit, which wakes the relay without it ever seeing an uncommitted row.
 */
export async function enqueueEvent(client: Queryable, event: DomainEvent): Promise<void> {
  await client.query(
    `WITH enqueued AS (INSERT INTO outbox (id, type, payload) VALUES ($1, $2, $3) RETURNING id)
     SELECT pg_notify(${outboxChannelSql}, '') FROM enqueued`,
    [event.id, event.type, JSON.stringify(event)],
  );
}

/** The outbox INSERT of many events, numbering its three parameters from `first`. */
const insertEventsSql = (first: number) =>
  `INSERT INTO outbox (id, type, payload)
   SELECT id, type, payload FROM unnest($${first}::uuid[], $${first + 1}::text[], $${first + 2}::jsonb[])
     WITH ORDINALITY AS e (id, type, payload, position) ORDER BY position
   RETURNING id`;

const eventColumns = (events: DomainEvent[]) => [
  events.map((e) => e.id),
  events.map((e) => e.type),
  events.map((e) => JSON.stringify(e)),
];

/**
 * Records many events in one statement (one round trip) in the caller's transaction, with one
 * NOTIFY: what a batch of settlements writes. Same guarantees as `enqueueEvent`.
 */
export async function enqueueEvents(client: Queryable, events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await client.query(
    `WITH enqueued AS (${insertEventsSql(1)})
     SELECT pg_notify(${outboxChannelSql}, '') WHERE EXISTS (SELECT 1 FROM enqueued)`,
    eventColumns(events),
  );
}

/**
 * Makes `change` (an INSERT, UPDATE or DELETE) and records `events` in one statement: one round
 * trip and no BEGIN/COMMIT, since a statement is atomic on its own — the events exist if and
 * only if the change was committed. Postgres runs a data-modifying WITH part exactly once even
 * when nothing reads it.
 */
export async function changeWithEvents(
  client: Queryable,
  change: { text: string; values: unknown[] },
  events: DomainEvent[],
): Promise<void> {
  await client.query(
    `WITH changed AS (${change.text}), enqueued AS (${insertEventsSql(change.values.length + 1)})
     SELECT pg_notify(${outboxChannelSql}, '') WHERE EXISTS (SELECT 1 FROM enqueued)`,
    [...change.values, ...eventColumns(events)],
  );
}

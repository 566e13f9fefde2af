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

/**
 * Records many events in one statement (one round trip) in the caller's transaction, with one
 * NOTIFY: what a batch of settlements writes. Same guarantees as `enqueueEvent`.
 */
export async function enqueueEvents(client: Queryable, events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await client.query(
    `WITH enqueued AS (
       INSERT INTO outbox (id, type, payload)
       SELECT id, type, payload FROM unnest($1::uuid[], $2::text[], $3::jsonb[])
         WITH ORDINALITY AS e (id, type, payload, position) ORDER BY position
       RETURNING id)
     SELECT pg_notify(${outboxChannelSql}, '') WHERE EXISTS (SELECT 1 FROM enqueued)`,
    [events.map((e) => e.id), events.map((e) => e.type), events.map((e) => JSON.stringify(e))],
  );
}

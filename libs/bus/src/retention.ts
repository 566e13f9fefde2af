import type { Queryable } from '@lockdrop/db';

const DAY_MS = 24 * 3_600_000;

/**
 * How long the events stream keeps a message. A consumer that is down longer than this misses
 * events, so it is generous; it is also the longest a message can wait to be redelivered.
 */
export const EVENT_STREAM_MAX_AGE_DAYS = 14;
/**
 * How long a consumer remembers an event it applied. Longer than the stream keeps messages, so
 * nothing the stream can still redeliver is ever forgotten: pruning cannot let an event apply twice.
 */
export const PROCESSED_EVENT_RETENTION_DAYS = 30;
/** Published outbox rows are kept a week for debugging; unpublished ones are never pruned. */
export const PUBLISHED_OUTBOX_RETENTION_DAYS = 7;

/** Deletes this schema's bookkeeping that no redelivery can need any more. */
export async function pruneBusRecords(
  db: Queryable,
  now: Date,
): Promise<{ processedEvents: number; outbox: number }> {
  const processed = await db.query('DELETE FROM processed_events WHERE processed_at < $1', [
    new Date(now.getTime() - PROCESSED_EVENT_RETENTION_DAYS * DAY_MS),
  ]);
  const outbox = await db.query(
    'DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < $1',
    [new Date(now.getTime() - PUBLISHED_OUTBOX_RETENTION_DAYS * DAY_MS)],
  );
  return { processedEvents: processed.rowCount ?? 0, outbox: outbox.rowCount ?? 0 };
}

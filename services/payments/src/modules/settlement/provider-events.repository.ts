import type { Queryable } from '@lockdrop/db';
import type { WebhookNotice } from '../../providers/types.js';

export type ProviderEventStatus = 'received' | 'parked' | 'retry' | 'processed' | 'ignored';

export interface ProviderEvent {
  id: number;
  provider: string;
  status: ProviderEventStatus;
  transactionId: string | null;
  txRef: string | null;
  attempts: number;
}

/**
 * Identifiers copied out of a provider payload into text columns, which cannot hold U+0000. None
 * of ours contains one, so a stand-in keeps the row storable and can never match a checkout.
 */
const storable = (value: string | null | undefined) =>
  value?.replaceAll('\u0000', '\uFFFD') ?? null;

const COLUMNS = `id, provider, status, transaction_id AS "transactionId", tx_ref AS "txRef", attempts`;

/**
 * Stores the raw notification once per (provider, event key). Returns the stored row and
 * whether this call created it. A charge notification is due at `dueAt` (now: the event drain
 * settles it right after the provider has its answer), or in two minutes when none is given.
 */
export async function storeProviderEvent(
  db: Queryable,
  provider: string,
  notice: WebhookNotice,
  payload: unknown,
  dueAt: Date | null = null,
): Promise<{ event: ProviderEvent; created: boolean }> {
  const inserted = await db.query<ProviderEvent>(
    `INSERT INTO provider_events (provider, event_key, event_type, transaction_id, tx_ref, payload, status,
       next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7,
       CASE WHEN $7 = 'received' THEN COALESCE($8::timestamptz, now() + interval '2 minutes') END)
     ON CONFLICT (provider, event_key) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      provider,
      storable(notice.eventKey),
      storable(notice.eventType),
      storable(notice.charge?.transactionId),
      storable(notice.charge?.txRef),
      JSON.stringify(payload),
      notice.charge ? 'received' : 'ignored',
      dueAt,
    ],
  );
  if (inserted.rows[0]) return { event: inserted.rows[0], created: true };
  const { rows } = await db.query<ProviderEvent>(
    `SELECT ${COLUMNS} FROM provider_events WHERE provider = $1 AND event_key = $2`,
    [provider, storable(notice.eventKey)],
  );
  return { event: rows[0]!, created: false };
}

export async function markEventProcessed(
  db: Queryable,
  id: number,
  outcome: string,
  now: Date,
): Promise<void> {
  await markEventsProcessed(db, [{ id, outcome }], now);
}

/** Final outcomes of many events in one statement (a settlement batch). */
export async function markEventsProcessed(
  db: Queryable,
  outcomes: Array<{ id: number; outcome: string }>,
  now: Date,
): Promise<void> {
  if (outcomes.length === 0) return;
  await db.query(
    `UPDATE provider_events e SET status = 'processed', outcome = o.outcome, processed_at = $3,
       next_attempt_at = NULL, last_error = NULL
     FROM unnest($1::bigint[], $2::text[]) AS o (id, outcome) WHERE e.id = o.id`,
    [outcomes.map((o) => o.id), outcomes.map((o) => o.outcome), now],
  );
}

/**
 * Keeps the event for another attempt at `nextAttemptAt` (parked: checkout not there yet; retry:
 * provider down). The attempt was counted when the event was claimed.
 */
export async function scheduleEventRetry(
  db: Queryable,
  id: number,
  status: 'parked' | 'retry',
  reason: string,
  nextAttemptAt: Date,
): Promise<void> {
  await db.query(
    `UPDATE provider_events SET status = $2, last_error = $3, next_attempt_at = $4
     WHERE id = $1 AND status <> 'processed'`,
    [id, status, reason, nextAttemptAt],
  );
}

/** Attempts a stored provider event gets; then it waits for an operator (and is reported). */
export const PROVIDER_EVENT_MAX_ATTEMPTS = 20;

/** When a claim made at `now` ends; `releaseLeases` finds its own claims by this time. */
export const leaseEnd = (now: Date, leaseSeconds: number): Date =>
  new Date(now.getTime() + leaseSeconds * 1000);

/** A charge notification on its way into the store. */
export interface IncomingCharge {
  provider: string;
  notice: WebhookNotice;
  payload: unknown;
}

/**
 * Stores many charge notifications in one statement (one round trip, one commit), each once per
 * (provider, event key), due at `dueAt`. Says, per notification in order, whether it created its
 * row: of several carrying one key — in this batch or stored before — at most the first does.
 *
 * A repeat whose stored row the settler is marking processed waits in the unique check until that
 * transaction commits; the settler writes the row last, just before COMMIT, so the wait is about a
 * commit long. A `NOT EXISTS` read first, which never waits, was tried and measured worse (answer
 * p50 13 → 37 ms at a steady 375 deliveries a second on 2 cores; this statement over 30 ms about
 * once a second), so the unique index alone decides.
 */
export async function storeChargeEvents(
  db: Queryable,
  charges: IncomingCharge[],
  dueAt: Date,
): Promise<boolean[]> {
  const keys = charges.map((charge) => storable(charge.notice.eventKey)!);
  const { rows } = await db.query<{ provider: string; eventKey: string }>(
    `INSERT INTO provider_events (provider, event_key, event_type, transaction_id, tx_ref, payload,
       status, next_attempt_at)
     SELECT provider, event_key, event_type, transaction_id, tx_ref, payload, 'received', $7
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS incoming (provider, event_key, event_type, transaction_id, tx_ref, payload)
     ON CONFLICT (provider, event_key) DO NOTHING
     RETURNING provider, event_key AS "eventKey"`,
    [
      charges.map((charge) => charge.provider),
      keys,
      charges.map((charge) => storable(charge.notice.eventType)),
      charges.map((charge) => storable(charge.notice.charge?.transactionId)),
      charges.map((charge) => storable(charge.notice.charge?.txRef)),
      charges.map((charge) => JSON.stringify(charge.payload)),
      dueAt,
    ],
  );
  const created = new Set(rows.map((row) => `${row.provider}\u0000${row.eventKey}`));
  return charges.map((charge, index) => created.delete(`${charge.provider}\u0000${keys[index]}`));
}

/**
 * Leases due events to this process for `leaseSeconds` (SKIP LOCKED: replicas take different
 * ones); a process that dies holding one leaves it due again when the lease ends. Claiming counts
 * the attempt, so an event whose settlement crashes its process every time (a poison event) uses
 * up its attempts and stops coming back, and the oldest due come first, so it never blocks the
 * rest. Every waiting event has a due time (payments 0160), so this walks the pending index in
 * its own order: a plain index scan, cheap however many settled events the index still holds.
 */
export async function claimDueEvents(
  db: Queryable,
  now: Date,
  limit: number,
  leaseSeconds: number,
): Promise<ProviderEvent[]> {
  const { rows } = await db.query<ProviderEvent>(
    `UPDATE provider_events SET next_attempt_at = $4, attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM provider_events
       WHERE status IN ('parked', 'retry', 'received') AND attempts < $3 AND next_attempt_at <= $1
       ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [now, limit, PROVIDER_EVENT_MAX_ATTEMPTS, leaseEnd(now, leaseSeconds)],
  );
  return rows;
}

/**
 * Gives back the claims this process made at the given lease ends and could not settle because
 * the database went away — even a claim whose commit we never heard back about — once it answers
 * again: those events are due at once rather than when the lease runs out, and the outage does
 * not spend their attempt. A lease end is a claim's token; another process's claim ending in the
 * same millisecond would only be settled sooner, which settlement's checkout lock makes harmless.
 */
export async function releaseLeases(db: Queryable, leaseEnds: Date[], now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE provider_events SET next_attempt_at = $2, attempts = greatest(attempts - 1, 0)
     WHERE next_attempt_at = ANY($1::timestamptz[]) AND status <> 'processed'`,
    [leaseEnds, now],
  );
  return rowCount ?? 0;
}

export async function recordMismatch(
  db: Queryable,
  mismatch: {
    checkoutId: string;
    provider: string;
    transactionId: string;
    reasons: string[];
    expected: unknown;
    reported: unknown;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO payment_mismatches (checkout_id, provider, transaction_id, reasons, expected, reported)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [
      mismatch.checkoutId,
      mismatch.provider,
      mismatch.transactionId,
      mismatch.reasons,
      JSON.stringify(mismatch.expected),
      JSON.stringify(mismatch.reported),
    ],
  );
}

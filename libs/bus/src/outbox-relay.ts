import type { DomainEvent } from '@lockdrop/contracts';
import type { QueryResult } from 'pg';
import { type Pool, isOutage } from '@lockdrop/db';
import { errorMessage, silentLogger, type Logger } from './logger.js';
import { LoopTimer } from './loop-timer.js';
import { listenForOutboxWrites } from './outbox-listener.js';

/** What the relay needs from the bus; a bus connection is one. */
export interface EventPublisher {
  publish(event: DomainEvent): Promise<void>;
}

export interface OutboxRelayOptions {
  pool: Pool;
  bus: EventPublisher;
  logger?: Logger;
  /** The safety net when a NOTIFY is missed (listener reconnecting); normally NOTIFY wakes the relay at once. */
  pollIntervalMs?: number;
}

export interface RelayOutcome {
  published: number;
  failed: number;
}

export interface OutboxRelay {
  /** Publishes one batch of unpublished events now; the background loop calls this too. */
  relayOnce(): Promise<RelayOutcome>;
  /** Lets the current batch finish, then releases the listener connection. */
  stop(): Promise<void>;
}

const BATCH_SIZE = 100;
const MAX_BACKOFF_MS = 30_000;

interface OutboxRow {
  id: string;
  payload: DomainEvent;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An SQL array literal of the rows' ids; they are Postgres' own uuids, checked all the same. */
function uuidArray(rows: OutboxRow[]): string {
  for (const { id } of rows)
    if (!UUID.test(id)) throw new Error(`outbox id ${JSON.stringify(id)} is not a uuid`);
  return `'{${rows.map((row) => row.id).join(',')}}'::uuid[]`;
}

/**
 * Publishes events committed to the outbox. Rows are claimed with FOR UPDATE SKIP LOCKED so
 * replicas share the work instead of publishing the same row at once; a crash after publishing
 * but before marking the row re-publishes it with the same msgID, which JetStream drops within
 * its duplicate window (and idempotent consumers absorb after it). A failed publish leaves the
 * row for a later pass, and the loop backs off while the bus is unreachable.
 */
export function startOutboxRelay({
  pool,
  bus,
  logger = silentLogger,
  pollIntervalMs = 1_000,
}: OutboxRelayOptions): OutboxRelay {
  const timer = new LoopTimer();

  /**
   * One pass in two round trips: the claim opens the transaction and the marks close it, each
   * sent as one multi-statement query (simple protocol, so no parameters: the batch size is a
   * constant and the ids are the uuids Postgres just returned). The relay runs a pass for every
   * commit that enqueues, so BEGIN and COMMIT on their own were half of its trips to Postgres.
   */
  const relayOnce = async (): Promise<RelayOutcome> => {
    const client = await pool.connect();
    try {
      const [, claimed] = (await client.query(
        `BEGIN; SELECT id, payload FROM outbox WHERE published_at IS NULL
         ORDER BY created_at LIMIT ${BATCH_SIZE} FOR UPDATE SKIP LOCKED`,
      )) as unknown as [QueryResult, QueryResult<OutboxRow>];
      const rows = claimed.rows;
      // Pipelined rather than one at a time: a batch costs one round trip instead of one per event.
      const results = await Promise.allSettled(rows.map((row) => bus.publish(row.payload)));
      const published = rows.filter((_, index) => results[index]!.status === 'fulfilled');
      const failed = rows.filter((_, index) => results[index]!.status === 'rejected');
      await client.query(
        [
          published.length > 0 &&
            `UPDATE outbox SET published_at = now() WHERE id = ANY(${uuidArray(published)})`,
          failed.length > 0 &&
            `UPDATE outbox SET attempts = attempts + 1 WHERE id = ANY(${uuidArray(failed)})`,
          'COMMIT',
        ]
          .filter(Boolean)
          .join('; '),
      );
      if (failed.length > 0) {
        const firstError = results.find((result) => result.status === 'rejected');
        logger.warn(
          { failed: failed.length, err: errorMessage(firstError?.reason) },
          'outbox events not published; will retry',
        );
      }
      return { published: published.length, failed: failed.length };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  const relayUntilEmpty = async (): Promise<RelayOutcome> => {
    const total: RelayOutcome = { published: 0, failed: 0 };
    for (;;) {
      const outcome = await relayOnce();
      total.published += outcome.published;
      total.failed += outcome.failed;
      if (outcome.failed > 0 || outcome.published < BATCH_SIZE || timer.halted) return total;
    }
  };

  const run = async (): Promise<void> => {
    let consecutiveFailures = 0;
    while (!timer.halted) {
      timer.clearSignal();
      try {
        const outcome = await relayUntilEmpty();
        consecutiveFailures = outcome.failed > 0 ? consecutiveFailures + 1 : 0;
        if (outcome.published > 0)
          logger.debug({ published: outcome.published }, 'outbox events published');
      } catch (error) {
        consecutiveFailures += 1;
        // An outage is expected to end (the relay backs off and resumes); anything else is a fault.
        logger[isOutage(error) ? 'warn' : 'error'](
          { err: errorMessage(error) },
          'outbox relay pass failed',
        );
      }
      if (consecutiveFailures === 0) {
        await timer.sleep(pollIntervalMs, { wakeable: true });
      } else {
        // Not wakeable: while NATS or Postgres is down, every new write would otherwise trigger a doomed retry.
        await timer.sleep(Math.min(pollIntervalMs * 2 ** consecutiveFailures, MAX_BACKOFF_MS), {
          wakeable: false,
        });
      }
    }
  };

  const running = Promise.all([run(), listenForOutboxWrites(pool, timer, logger)]);

  return {
    relayOnce,
    async stop() {
      timer.halt();
      await running;
    },
  };
}

import { isOutage, type Queryable } from '@lockdrop/db';
import { storeChargeEvents, type IncomingCharge } from './provider-events.repository.js';

export interface ChargeInboxDeps {
  pool: Queryable;
  now: () => Date;
  /**
   * Told after each committed batch: how many deliveries it carried (their number tells a storm,
   * settle-pacing.ts) and whether it stored a new charge (the settler has work).
   */
  onStored?: (deliveries: number, storedNew: boolean) => void;
  logger: { error(object: object, message: string): void };
}

export interface ChargeInbox {
  /** Resolves once the charge is committed: true if this delivery stored it, false for a duplicate. */
  store(charge: IncomingCharge): Promise<boolean>;
}

interface Waiting {
  charge: IncomingCharge;
  resolve: (created: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for provider charge notifications (issue 31): deliveries that arrive while a batch
 * is being written wait for the next one, and each batch is one multi-row `INSERT … ON CONFLICT
 * DO NOTHING` in one autocommit — one round trip and one WAL flush for the lot instead of one per
 * delivery. A delivery is answered only after its batch committed, so "200" still means stored.
 * Alone, a delivery waits for nothing but the turn of the event loop it arrived in. A batch that
 * fails for another reason than an outage is written again one by one, so one bad row answers
 * only its own delivery with an error.
 */
export function createChargeInbox(
  deps: ChargeInboxDeps,
  options: { maxBatch: number },
): ChargeInbox {
  let waiting: Waiting[] = [];
  let writing = false;

  const write = async (batch: Waiting[]) => {
    try {
      const created = await storeChargeEvents(
        deps.pool,
        batch.map((item) => item.charge),
        deps.now(),
      );
      batch.forEach((item, index) => item.resolve(created[index]!));
      deps.onStored?.(batch.length, created.some(Boolean));
    } catch (error) {
      if (batch.length === 1 || isOutage(error)) {
        for (const item of batch) item.reject(error);
        return;
      }
      deps.logger.error(
        { batch: batch.length, err: (error as Error).message },
        'charge batch could not be stored; storing one by one',
      );
      for (const item of batch) await write([item]);
    }
  };

  const drain = async () => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, options.maxBatch);
      waiting = waiting.slice(batch.length);
      await write(batch);
    }
    writing = false;
  };

  return {
    store(charge) {
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ charge, resolve, reject });
        if (writing) return;
        writing = true;
        // Deliveries parsed in the same turn of the event loop join the first batch.
        setImmediate(() => void drain());
      });
    },
  };
}

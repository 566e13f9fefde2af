import { isOutage } from '@lockdrop/db';
import type { VerifiedTransaction } from '../../providers/types.js';
import {
  claimDueEvents,
  leaseEnd,
  markEventsProcessed,
  PROVIDER_EVENT_MAX_ATTEMPTS,
  releaseLeases,
  scheduleEventRetry,
  type ProviderEvent,
} from './provider-events.repository.js';
import type { SettlePacer } from './settle-pacing.js';
import { settleVerified, type SettlementDeps, type VerifiedPayment } from './settlement.js';

export interface SettlerDeps extends SettlementDeps {
  /** First retry delay; doubles per attempt up to 30 minutes. */
  retryBaseMs: number;
  logger: {
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
  /** Told when a stored event used its last attempt (counted on /metrics). */
  onEventExhausted?: () => void;
}

export interface SettlerOptions {
  /** Events claimed at once, and the most payments one settlement transaction writes. */
  batchSize: number;
  /** Verify calls in flight at once per process (they wait on the provider, not on our CPU). */
  verifyConcurrency: number;
  /** How long a claim is this process's; after it, a claim a dead process held is due again. */
  leaseSeconds: number;
  /**
   * Holds claims off during a webhook storm and paces them under a steady load
   * (settle-pacing.ts); without it, never.
   */
  pacer?: Pick<SettlePacer, 'holding' | 'caughtUp' | 'claimedAllDue'>;
}

export interface Settler {
  /** Claims due events and settles them, batch after batch, until none is due or the pacer holds. */
  drain(): Promise<void>;
  /** Ends after the batch in hand. */
  stop(): void;
}

const MAX_RETRY_DELAY_MS = 30 * 60 * 1000;

/** A verified payment waiting for its settlement transaction, and the claim it came from. */
interface Verified {
  event: ProviderEvent;
  payment: VerifiedPayment;
  leaseUntil: Date;
}

/**
 * The settler (issue 31): stored charge notifications are claimed in batches (`FOR UPDATE SKIP
 * LOCKED`, a lease that counts an attempt), verified with the provider concurrently — never one at
 * a time: a real verify takes 100–500 ms — and settled as they come back, many per transaction
 * (`settleVerified`): while one transaction commits, the next verified payments gather for the
 * one after. The next claim goes out once a claim's verifies are answered, not once its payments
 * have settled, so a notification stored meanwhile does not also wait for that commit (the steady
 * bench's "stored → recording" stage); at most one claimed batch waits behind the transaction in
 * hand, so claims never outrun settlement. Whatever cannot be settled yet stays stored with a due
 * time: the provider did not answer (retry, backoff), the checkout is not visible yet (parked),
 * the database went away (the lease runs out). A batch that fails for another reason is settled
 * again one payment at a time, so one poison event holds up only itself. Nothing is credited
 * twice: settlement runs under each checkout's row lock and finds what an earlier or concurrent
 * settler already paid.
 */
export function createSettler(deps: SettlerDeps, options: SettlerOptions): Settler {
  let stopped = false;
  /** Ends of our leases on claims a database outage kept us from settling; given back later. */
  const stranded = new Set<number>();
  const strand = (leaseUntil: Date) => stranded.add(leaseUntil.getTime());
  const releaseStranded = async () => {
    const leaseEnds = [...stranded];
    await releaseLeases(
      deps.pool,
      leaseEnds.map((time) => new Date(time)),
      deps.now(),
    );
    for (const time of leaseEnds) stranded.delete(time);
  };

  /** Keeps the event for a later attempt (its attempt was counted when it was claimed). */
  const later = async (event: ProviderEvent, status: 'parked' | 'retry', reason: string) => {
    if (event.attempts >= PROVIDER_EVENT_MAX_ATTEMPTS) {
      // No more automatic attempts: a paid buyer may be waiting for a file. Say so loudly.
      deps.onEventExhausted?.();
      deps.logger.error(
        { eventId: event.id, provider: event.provider, txRef: event.txRef, reason },
        'provider event gave up after its last attempt; needs an operator',
      );
    }
    const delay = Math.min(
      MAX_RETRY_DELAY_MS,
      deps.retryBaseMs * 2 ** Math.max(0, event.attempts - 1),
    );
    await scheduleEventRetry(
      deps.pool,
      event.id,
      status,
      reason,
      new Date(deps.now().getTime() + delay),
    );
  };

  const logFailure = (error: unknown, context: object, message: string) =>
    deps.logger[isOutage(error) ? 'warn' : 'error'](
      { ...context, err: (error as Error).message },
      message,
    );

  /** Settles verified payments in one transaction; a failed batch is retried one by one. */
  const settle = async (items: Verified[]) => {
    let outcomes;
    try {
      outcomes = await settleVerified(
        deps,
        items.map((item) => item.payment),
      );
    } catch (error) {
      // The database went away: the events stay leased to us, and are given back as soon as it
      // answers again (or, if this process dies first, are due again when the lease ends).
      if (isOutage(error) || items.length === 1) {
        if (isOutage(error)) for (const item of items) strand(item.leaseUntil);
        logFailure(
          error,
          { eventIds: items.map((item) => item.event.id) },
          'provider events could not be settled; due again once the database answers',
        );
        return;
      }
      logFailure(error, { batch: items.length }, 'settlement batch failed; settling one by one');
      for (const item of items) if (!stopped) await settle([item]);
      return;
    }
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome !== 'checkout_missing') continue;
      const { event } = items[index]!;
      await later(event, 'parked', `no checkout with tx_ref ${event.txRef} yet`).catch(
        (error: unknown) => logFailure(error, { eventId: event.id }, 'could not park event'),
      );
    }
  };

  // Verified payments wait here for the transaction in hand to commit, then go together in the
  // next: one transaction at a time per process, fed by every claim, so a claim's verifies
  // overlap the settling of the claim before.
  const ready: Verified[] = [];
  const unknown: Array<{ id: number; outcome: string }> = [];
  let settling: Promise<void> | null = null;
  const kick = () => {
    settling ??= (async () => {
      while (ready.length > 0) await settle(ready.splice(0, options.batchSize));
      if (unknown.length > 0) {
        const outcomes = unknown.splice(0);
        await markEventsProcessed(deps.pool, outcomes, deps.now()).catch((error: unknown) =>
          logFailure(error, { eventIds: outcomes.map((u) => u.id) }, 'could not record outcomes'),
        );
      }
    })().finally(() => {
      settling = null;
      // Answers that came while the loop above was ending start the next transaction.
      if (ready.length > 0 || unknown.length > 0) kick();
    });
  };
  const allSettled = async () => {
    while (settling) await settling;
  };

  /** Verifies one claimed batch concurrently; each answer joins the next settlement transaction. */
  const verifyEvents = async (events: ProviderEvent[], leaseUntil: Date) => {
    let next = 0;
    const lane = async () => {
      while (next < events.length && !stopped) {
        const event = events[next++]!;
        let verified: VerifiedTransaction | null;
        try {
          verified = await deps.provider.verifyTransaction(event.transactionId!);
        } catch (error) {
          deps.logger.warn(
            { eventId: event.id, err: (error as Error).message },
            'provider verify failed; will retry',
          );
          await later(event, 'retry', (error as Error).message).catch((failure: unknown) => {
            if (isOutage(failure)) strand(leaseUntil);
            logFailure(failure, { eventId: event.id }, 'could not schedule event retry');
          });
          continue;
        }
        if (!verified) unknown.push({ id: event.id, outcome: 'unknown_transaction' });
        else
          ready.push({
            event,
            leaseUntil,
            payment: { txRef: event.txRef!, verified, providerEventId: event.id },
          });
        kick();
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(options.verifyConcurrency, events.length) }, lane),
    );
  };

  return {
    async drain() {
      if (stranded.size > 0) await releaseStranded();
      try {
        while (!stopped) {
          if (options.pacer?.holding()) return;
          // Claims no faster than they settle: at most one batch waits behind the transaction.
          while (ready.length >= options.batchSize && settling) await settling;
          const now = deps.now();
          const leaseUntil = leaseEnd(now, options.leaseSeconds);
          let events: ProviderEvent[];
          try {
            events = await claimDueEvents(deps.pool, now, options.batchSize, options.leaseSeconds);
          } catch (error) {
            // The claim may have committed without our hearing it (a primary lost mid-commit).
            if (isOutage(error)) strand(leaseUntil);
            throw error;
          }
          if (events.length === 0) {
            options.pacer?.caughtUp();
            return;
          }
          if (events.length < options.batchSize) options.pacer?.claimedAllDue();
          await verifyEvents(events, leaseUntil);
        }
      } finally {
        await allSettled();
      }
    },
    stop() {
      stopped = true;
    },
  };
}

import type { Pool } from '@lockdrop/db';
import { claimVerification, dueUnconfirmedCheckouts, findCheckoutByTxRef } from '../sales/index.js';
import { claimDueEvents } from './provider-events.repository.js';
import { settleTransaction } from './settlement.js';
import { reconcileRefunds } from '../refunds/index.js';
import { processChargeEvent, type WebhookDeps } from './webhooks.js';
import { isOutage } from '@lockdrop/db';

const BATCH = 20;
/** Longer than a verify call may take (PROVIDER_TIMEOUT_MS) plus a settlement. */
const EVENT_LEASE_SECONDS = 30;
const CHECKOUT_POLL_SECONDS = 120;
/** Stored events settled at once per process: verify calls wait on the provider, not the CPU. */
const EVENT_CONCURRENCY = 16;

export interface Reconciler {
  /** One pass: due webhooks, unconfirmed checkouts, unsettled refunds. */
  runOnce(): Promise<void>;
  /** A webhook was stored: settle due events now rather than at the next pass. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The safety net under the webhook (Flutterwave's advice: poll pending transactions): events
 * that could not be settled are retried with backoff, and checkouts no webhook confirmed are
 * asked about by reference, and refunds without a final answer are looked up with the provider.
 * Claims are leases, so replicas never work on the same row at once.
 */
export function startReconciler(
  deps: WebhookDeps & {
    pool: Pool;
    logger: WebhookDeps['logger'] & { error(object: object, message: string): void };
  },
  intervalMs: number,
): Reconciler {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const pollCheckout = async (txRef: string) => {
    const checkout = await findCheckoutByTxRef(deps.pool, txRef);
    if (
      !checkout ||
      !(await claimVerification(deps.pool, checkout.id, deps.now(), CHECKOUT_POLL_SECONDS))
    )
      return;
    const verified = await deps.provider.verifyByReference(txRef);
    if (verified) await settleTransaction(deps, txRef, verified);
  };

  /** Claims due events and settles them, several at a time, until none is due. */
  const drainEvents = async () => {
    while (!stopped) {
      const events = await claimDueEvents(
        deps.pool,
        deps.now(),
        EVENT_CONCURRENCY * 2,
        EVENT_LEASE_SECONDS,
      );
      if (events.length === 0) return;
      let next = 0;
      const lane = async () => {
        while (next < events.length && !stopped) {
          const event = events[next++]!;
          // A failure (the database went away) leaves the event leased; it is due again after.
          await processChargeEvent(deps, event).catch((error: unknown) =>
            deps.logger[isOutage(error) ? 'warn' : 'error'](
              { eventId: event.id, err: (error as Error).message },
              'provider event could not be settled; will retry',
            ),
          );
        }
      };
      await Promise.all(Array.from({ length: EVENT_CONCURRENCY }, lane));
    }
  };

  // One drain at a time per process; a wake during one makes it look again when it ends.
  let draining: Promise<void> | null = null;
  let wokenAgain = false;
  const wake = () => {
    if (stopped) return;
    if (draining) {
      wokenAgain = true;
      return;
    }
    draining = (async () => {
      do {
        wokenAgain = false;
        await drainEvents();
      } while (wokenAgain && !stopped);
    })()
      .catch((error: unknown) =>
        deps.logger[isOutage(error) ? 'warn' : 'error'](
          { err: (error as Error).message },
          'event drain failed',
        ),
      )
      .finally(() => {
        draining = null;
      });
  };

  const runOnce = async () => {
    await drainEvents();
    for (const txRef of await dueUnconfirmedCheckouts(deps.pool, deps.now(), BATCH)) {
      if (stopped) return;
      await pollCheckout(txRef).catch((error: unknown) =>
        deps.logger.warn({ txRef, err: (error as Error).message }, 'checkout poll failed'),
      );
    }
    if (!stopped) await reconcileRefunds(deps.refunds, BATCH);
  };

  const tick = () => {
    running = runOnce()
      .catch((error: unknown) =>
        deps.logger[isOutage(error) ? 'warn' : 'error'](
          { err: (error as Error).message },
          'reconciler pass failed',
        ),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);

  return {
    runOnce,
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await draining;
    },
  };
}

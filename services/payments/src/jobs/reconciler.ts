import type { Pool } from '@lockdrop/db';
import {
  claimVerification,
  dueUnconfirmedCheckouts,
  findCheckoutByTxRef,
} from '../db/checkouts.repo.js';
import { claimDueEvents } from '../db/provider-events.repo.js';
import { settleTransaction } from '../domain/settlement.js';
import { reconcileRefunds } from '../domain/refunds.js';
import { processChargeEvent, type WebhookDeps } from '../domain/webhooks.js';
import { isOutage } from '@lockdrop/db';

const BATCH = 20;
const EVENT_LEASE_SECONDS = 120;
const CHECKOUT_POLL_SECONDS = 120;

export interface Reconciler {
  /** One pass: parked and failed webhooks, unconfirmed checkouts, unsettled refunds. */
  runOnce(): Promise<void>;
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

  const runOnce = async () => {
    for (const event of await claimDueEvents(deps.pool, deps.now(), BATCH, EVENT_LEASE_SECONDS)) {
      if (stopped) return;
      await processChargeEvent(deps, event);
    }
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
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

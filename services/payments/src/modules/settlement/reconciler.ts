import type { Pool } from '@lockdrop/db';
import { startRepeatingPass } from '@lockdrop/service';
import { claimVerification, dueUnconfirmedCheckouts, findCheckoutByTxRef } from '../sales/index.js';
import { settleTransaction } from './settlement.js';
import { reconcileRefunds } from '../refunds/index.js';
import { createSettler, type SettlerOptions } from './settler.js';
import { createSettlePacer, type SettlePacingOptions } from './settle-pacing.js';
import type { WebhookDeps } from './webhooks.js';
import { isOutage } from '@lockdrop/db';

const BATCH = 20;
const CHECKOUT_POLL_SECONDS = 120;

export interface ReconcilerOptions {
  /** The full pass: retries, unconfirmed checkouts, refunds. */
  intervalMs: number;
  /** How often the settler looks for events other replicas stored (this one's wake it at once). */
  settlerPollMs: number;
  settler: Omit<SettlerOptions, 'leaseSeconds' | 'pacer'> & { providerTimeoutMs: number };
  /**
   * Hold settlement off while this replica answers a webhook storm, and pace it under a steady
   * load (settle-pacing.ts).
   */
  pacing?: SettlePacingOptions;
}

/**
 * A claim lasts as long as a claimed batch can take: its verify calls run `verifyConcurrency` at
 * a time, each up to the provider timeout, then settlement, behind at most the transaction in
 * hand and one verified batch (settler.ts); with a margin.
 */
export function settlerLeaseSeconds(options: ReconcilerOptions['settler']): number {
  const rounds = Math.ceil(options.batchSize / options.verifyConcurrency);
  return Math.ceil((rounds * options.providerTimeoutMs) / 1000) + 30;
}

export interface Reconciler {
  /** One pass: due webhooks, unconfirmed checkouts, unsettled refunds. */
  runOnce(): Promise<void>;
  /** Settle due events now rather than at the next pass (unless a storm holds them). */
  wake(): void;
  /**
   * The webhook route committed a group of `deliveries` charge notifications: settle them now, or
   * once the storm they belong to has passed.
   */
  stored(deliveries: number, storedNew: boolean): void;
  stop(): Promise<void>;
}

/**
 * Runs the settler (settler.ts) when a webhook is stored here, every `settlerPollMs` for events
 * other replicas stored, and in each pass. The pass is also the safety net under the webhook
 * (Flutterwave's advice: poll pending transactions): events that could not be settled are
 * retried with backoff, and checkouts no webhook confirmed are
 * asked about by reference, and refunds without a final answer are looked up with the provider.
 * Claims are leases, so replicas never work on the same row at once.
 */
export function startReconciler(
  deps: WebhookDeps & {
    pool: Pool;
    logger: WebhookDeps['logger'] & { error(object: object, message: string): void };
  },
  options: ReconcilerOptions,
): Reconciler {
  const { intervalMs } = options;
  const pacer = options.pacing ? createSettlePacer(() => wake(), options.pacing) : undefined;
  const settler = createSettler(deps, {
    batchSize: options.settler.batchSize,
    verifyConcurrency: options.settler.verifyConcurrency,
    leaseSeconds: settlerLeaseSeconds(options.settler),
    pacer,
  });
  let pollTimer: NodeJS.Timeout | undefined;
  let stopped = false;

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

  const drainEvents = () => settler.drain();

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
  // Other replicas' webhooks: a short poll (one indexed query when nothing is due).
  const poll = () => {
    wake();
    if (!stopped) pollTimer = setTimeout(poll, options.settlerPollMs);
  };
  pollTimer = setTimeout(poll, options.settlerPollMs);

  const runOnce = async () => {
    wake();
    await draining;
    for (const txRef of await dueUnconfirmedCheckouts(deps.pool, deps.now(), BATCH)) {
      if (stopped) return;
      await pollCheckout(txRef).catch((error: unknown) =>
        deps.logger.warn({ txRef, err: (error as Error).message }, 'checkout poll failed'),
      );
    }
    if (!stopped) await reconcileRefunds(deps.refunds, BATCH);
  };

  const passes = startRepeatingPass(runOnce, {
    intervalMs,
    logger: deps.logger,
    failure: 'reconciler pass failed',
  });

  return {
    runOnce,
    wake,
    stored(deliveries, storedNew) {
      pacer?.stored(deliveries);
      if (storedNew) wake();
    },
    async stop() {
      stopped = true;
      pacer?.stop();
      settler.stop();
      clearTimeout(pollTimer);
      await passes.stop();
      await draining;
    },
  };
}

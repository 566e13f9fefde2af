export interface SettlePacingOptions {
  /** A group commit carrying this many deliveries means notifications are queueing: a storm. */
  stormBatch: number;
  /** The storm is over once no such batch came for this long (default 100 ms). */
  quietMs?: number;
  /** The longest the settler holds off in one storm, from the first charge it left waiting. */
  maxHoldMs: number;
}

export interface SettlePacer {
  /** The charge inbox committed a batch of `deliveries` (new and repeated alike). */
  stored(deliveries: number): void;
  /** Whether the settler should leave due events for now (checked before each claim). */
  holding(): boolean;
  /** The settler found nothing due: the next storm starts a new hold. */
  caughtUp(): void;
  stop(): void;
}

/**
 * When a replica settles what its webhook route stored (issue 31). Alone or at a steady rate: at
 * once. In a storm, which a group commit carrying `stormBatch` deliveries or more reveals (they
 * queued while the one before was written), the settler holds off until no such batch has come for
 * `quietMs`, and never longer than `maxHoldMs` after the storm began: answering the provider comes
 * first — Flutterwave retries what is not answered in time, so a slow answer makes a storm longer —
 * and settling takes the same cores and database the answers need. Stored events are safe, and
 * settled in batches the moment the storm passes. A storm still going after the hold is settled
 * while it goes on, as without pacing, until the settler catches up.
 *
 * Measured on 2 cores (`npm run bench -- --only webhooks`): with the settler working through the
 * storm, 1,240 deliveries answered a second, half the floor server's; without it, as many as the
 * floor answers, every entitlement still usable within 5 s of the last notification.
 */
export function createSettlePacer(
  wake: () => void,
  options: SettlePacingOptions,
  now: () => number = () => performance.now(),
): SettlePacer {
  let lastStormBatchAt = Number.NEGATIVE_INFINITY;
  /** When this storm's hold began; null outside a hold. Kept until the settler catches up. */
  let holdStartedAt: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const quietMs = options.quietMs ?? 100;

  const quietFor = (at: number) => at - lastStormBatchAt >= quietMs;
  const heldLongEnough = (at: number) =>
    holdStartedAt !== null && at - holdStartedAt >= options.maxHoldMs;
  const holding = () => {
    const at = now();
    return holdStartedAt !== null && !quietFor(at) && !heldLongEnough(at);
  };

  /** Wakes the settler when the hold ends: the storm went quiet, or it was held long enough. */
  const watch = () => {
    clearTimeout(timer);
    if (stopped || holdStartedAt === null) return;
    const at = now();
    if (!holding()) {
      wake();
      return;
    }
    const untilQuiet = quietMs - (at - lastStormBatchAt);
    const untilLongEnough = options.maxHoldMs - (at - holdStartedAt);
    timer = setTimeout(watch, Math.max(1, Math.ceil(Math.min(untilQuiet, untilLongEnough))));
    timer.unref();
  };

  return {
    stored(deliveries) {
      if (deliveries < options.stormBatch) return;
      const at = now();
      lastStormBatchAt = at;
      if (holdStartedAt === null) {
        holdStartedAt = at;
        watch();
      }
    },
    holding,
    caughtUp() {
      if (holdStartedAt !== null && !holding()) {
        holdStartedAt = null;
        clearTimeout(timer);
      }
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

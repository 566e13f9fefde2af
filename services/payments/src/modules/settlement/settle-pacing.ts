export interface SettlePacingOptions {
  /** A group commit carrying this many deliveries means notifications are queueing: a storm. */
  stormBatch: number;
  /** The storm is over once no such batch came for this long (default 100 ms). */
  quietMs?: number;
  /**
   * The longest the settler holds off in one storm, from the first charge it left waiting
   * (0: never).
   */
  maxHoldMs: number;
  /**
   * Under a steady load: after a claim that took every due event (fewer than a batch), the next
   * claim waits until this long after it (0: at once). A payment after a quiet spell is claimed at
   * once; a backlog of full batches is claimed without a pause.
   */
  cadenceMs?: number;
}

export interface SettlePacer {
  /** The charge inbox committed a batch of `deliveries` (new and repeated alike). */
  stored(deliveries: number): void;
  /** Whether the settler should leave due events for now (checked before each claim). */
  holding(): boolean;
  /** The settler found nothing due: the next storm starts a new hold. */
  caughtUp(): void;
  /** The settler's claim took every due event, fewer than a batch: the cadence starts. */
  claimedAllDue(): void;
  stop(): void;
}

/**
 * When a replica settles what its webhook route stored (issue 31). Alone: at once. At a steady
 * rate: at most once per `cadenceMs` (below). In a storm, which a group commit carrying
 * `stormBatch` deliveries or more reveals (they queued while the one before was written), the
 * settler holds off until no such batch has come for `quietMs`, and never longer than `maxHoldMs`
 * after the storm began: answering the provider comes first — Flutterwave retries what is not
 * answered in time, so a slow answer makes a storm longer — and settling takes the same cores and
 * database the answers need. Stored events are safe, and settled in batches the moment the storm
 * passes. A storm still going after the hold is settled while it goes on, as without pacing, until
 * the settler catches up.
 *
 * Measured on 2 cores (`npm run bench -- --only webhooks`): with the settler working through the
 * storm, 1,240 deliveries answered a second, half the floor server's; without it, as many as the
 * floor answers, every entitlement still usable within 5 s of the last notification.
 *
 * Under a steady load the group commits stay small and no storm shows, but claiming each
 * notification as it comes settles them one or two at a time, and every stage after the claim
 * (the settlement transaction, the relay, each consumer's batch, the mail) then pays its fixed
 * cost per payment. The cadence claims at most once per `cadenceMs` while claims keep finding
 * fewer than a batch: with 100 ms, on 2 cores at 150 payments a second, about half the CPU per
 * payment and a quicker answer, for about 60 ms more until the entitlement (payments' README).
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
  const cadenceMs = options.cadenceMs ?? 0;
  /** Until when the cadence holds claims off, and the timer that wakes the settler then. */
  let cadenceUntil = Number.NEGATIVE_INFINITY;
  let cadenceTimer: NodeJS.Timeout | undefined;

  const quietFor = (at: number) => at - lastStormBatchAt >= quietMs;
  const heldLongEnough = (at: number) =>
    holdStartedAt !== null && at - holdStartedAt >= options.maxHoldMs;
  const stormHolding = (at: number) =>
    holdStartedAt !== null && !quietFor(at) && !heldLongEnough(at);
  const holding = () => {
    const at = now();
    if (stormHolding(at)) return true;
    if (at >= cadenceUntil) return false;
    // Whoever asks in the cadence (its own claim loop, a webhook's wake, the poll for other
    // replicas' events) is answered by one claim when it ends.
    if (!cadenceTimer && !stopped) {
      cadenceTimer = setTimeout(
        () => {
          cadenceTimer = undefined;
          if (!stopped) wake();
        },
        Math.max(1, Math.ceil(cadenceUntil - at)),
      );
      cadenceTimer.unref();
    }
    return true;
  };

  /** Wakes the settler when the hold ends: the storm went quiet, or it was held long enough. */
  const watch = () => {
    clearTimeout(timer);
    if (stopped || holdStartedAt === null) return;
    const at = now();
    if (!stormHolding(at)) {
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
      if (deliveries < options.stormBatch || options.maxHoldMs === 0) return;
      const at = now();
      lastStormBatchAt = at;
      if (holdStartedAt === null) {
        holdStartedAt = at;
        watch();
      }
    },
    holding,
    caughtUp() {
      if (holdStartedAt !== null && !stormHolding(now())) {
        holdStartedAt = null;
        clearTimeout(timer);
      }
    },
    claimedAllDue() {
      if (cadenceMs > 0) cadenceUntil = now() + cadenceMs;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(cadenceTimer);
    },
  };
}

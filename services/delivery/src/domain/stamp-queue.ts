/** Why a caller was not given its result: it is still being made, or there is no room to queue it. */
export class StampPendingError extends Error {
  override name = 'StampPendingError';
  constructor(readonly reason: 'waiting' | 'queue_full') {
    super(reason === 'waiting' ? 'still being made' : 'too many waiting');
  }
}

export interface StampQueueLimits {
  /** Jobs running at once (each is a process of up to PREVIEW_MEMORY_MB). */
  concurrency: number;
  /** Jobs waiting for a slot; past it a new job is refused at once. */
  maxQueued: number;
  /** How long a caller waits for its job before it is told to come back (the job goes on). */
  maxWaitMs: number;
}

/**
 * The one gate every stamping process passes: at most `concurrency` at once per replica, a
 * bounded queue behind them, and one job per key (a buyer and a file) however many requests ask
 * for it. A caller waits `maxWaitMs` at most; then it gets a `StampPendingError` while the job
 * carries on, so the request that comes back finds the copy made. Free claims by many e-mails,
 * or a ZIP of many PDFs, therefore cost at most `concurrency` processes, not one per request.
 */
export function createStampQueue({ concurrency, maxQueued, maxWaitMs }: StampQueueLimits) {
  const jobs = new Map<string, Promise<unknown>>();
  const waiting: { start: () => void; cancel: (error: Error) => void }[] = [];
  let running = 0;
  let closed = false;

  function slot(): Promise<void> {
    if (running < concurrency) {
      running += 1;
      return Promise.resolve();
    }
    return new Promise((start, cancel) => waiting.push({ start, cancel }));
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next.start();
    else running -= 1;
  }

  function deadline<T>(job: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new StampPendingError('waiting')), maxWaitMs);
    });
    return Promise.race([job, late]).finally(() => clearTimeout(timer));
  }

  return {
    /** `work`'s result if it is done within the wait; joins the job already under way for `key`. */
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      let job = jobs.get(key) as Promise<T> | undefined;
      if (!job) {
        if (closed || (running >= concurrency && waiting.length >= maxQueued))
          return Promise.reject(new StampPendingError('queue_full'));
        job = slot()
          .then(() => work().finally(release))
          .finally(() => jobs.delete(key));
        // A job whose callers stopped waiting fails unobserved; the next request tries again.
        job.catch(() => undefined);
        jobs.set(key, job);
      }
      return deadline(job);
    },

    /** Drops the jobs not started and waits for the running ones (before the pool closes). */
    async close(): Promise<void> {
      closed = true;
      for (const queued of waiting.splice(0)) queued.cancel(new StampPendingError('queue_full'));
      await Promise.allSettled(jobs.values());
    },
  };
}

export type StampQueue = ReturnType<typeof createStampQueue>;

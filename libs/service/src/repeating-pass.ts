import { isOutage } from '@lockdrop/db';

export interface RepeatingPass {
  /** No pass starts after this; resolves once the pass under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs`, counted from the end of the previous one so passes never
 * overlap. A failed pass is logged — an outage as a warning, since it is expected to end — and
 * the next one runs on time. `pass` is told whether the loop was stopped, to end a long pass early.
 */
export function startRepeatingPass(
  pass: (stopped: () => boolean) => Promise<unknown>,
  {
    intervalMs,
    logger,
    failure,
  }: {
    intervalMs: number;
    logger: {
      warn(object: object, message: string): void;
      error(object: object, message: string): void;
    };
    /** The log message of a failed pass. */
    failure: string;
  },
): RepeatingPass {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = pass(() => stopped)
      .then(
        () => undefined,
        (error: unknown) =>
          logger[isOutage(error) ? 'warn' : 'error']({ err: (error as Error).message }, failure),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

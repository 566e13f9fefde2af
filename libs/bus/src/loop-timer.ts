interface Sleeper {
  wakeable: boolean;
  resolve: () => void;
}

/**
 * The sleeps of a background loop. A notification of new work cuts a wakeable sleep short, or
 * the next one before it begins, so work signalled while the loop is busy is never missed; a
 * halt cuts every sleep so shutdown never waits out a poll interval or a backoff.
 */
export class LoopTimer {
  #workSignalled = false;
  #halted = false;
  readonly #sleepers = new Set<Sleeper>();
  #resolveHalt!: () => void;
  /** Settles when `halt()` is called, for work that waits on something other than a sleep. */
  readonly whenHalted = new Promise<void>((resolve) => {
    this.#resolveHalt = resolve;
  });

  get halted(): boolean {
    return this.#halted;
  }

  signalWork(): void {
    this.#workSignalled = true;
    for (const sleeper of this.#sleepers) if (sleeper.wakeable) sleeper.resolve();
  }

  /** Called as a pass begins: that pass covers everything signalled until now. */
  clearSignal(): void {
    this.#workSignalled = false;
  }

  halt(): void {
    this.#halted = true;
    this.#resolveHalt();
    for (const sleeper of this.#sleepers) sleeper.resolve();
  }

  sleep(ms: number, { wakeable }: { wakeable: boolean }): Promise<void> {
    if (this.#halted || (wakeable && this.#workSignalled)) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        wakeable,
        resolve: () => {
          clearTimeout(timer);
          this.#sleepers.delete(sleeper);
          resolve();
        },
      };
      const timer = setTimeout(sleeper.resolve, ms);
      this.#sleepers.add(sleeper);
    });
  }
}

/**
 * Polls `probe` until it returns something truthy, and returns that; fails the test with
 * `what` when nothing comes within `timeoutMs`.
 */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Polls `probe` until `accept` holds for what it returns, and returns that value; a failure
 * shows the last value seen.
 */
export async function waitUntil<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

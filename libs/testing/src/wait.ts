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

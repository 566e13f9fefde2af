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

/**
 * A watermark instead of "sleep, then assert nothing happened" (issue 30): waits until
 * `consumer` has recorded `eventId` in its service's `processed_events`, which libs/bus writes in
 * the transaction of the event's effect. A consumer takes its events one at a time, in order, so
 * by then it has handled every event published to it before this one too, and whatever that
 * event did (or did not do) is in the database. `db` is a pool on the consumer's schema.
 */
export async function processedBy(
  db: { query(sql: string, params: unknown[]): Promise<{ rowCount: number | null }> },
  consumer: string,
  eventId: string,
  timeoutMs = 15_000,
): Promise<void> {
  await waitFor(
    async () =>
      ((
        await db.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [
          consumer,
          eventId,
        ])
      ).rowCount ?? 0) > 0,
    timeoutMs,
    `${consumer} to process event ${eventId}`,
  );
}

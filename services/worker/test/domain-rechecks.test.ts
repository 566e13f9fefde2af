import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorkerHarness, waitFor, type WorkerHarness } from './support.js';

let harness: WorkerHarness;

// Every second instead of hourly, so the clock is seen to fire within the test.
beforeAll(async () => {
  harness = await startWorkerHarness({ DOMAIN_RECHECK_CRON: '* * * * * *' }, [
    'domains.recheck_due',
  ]);
}, 60_000);
afterAll(() => harness?.close());

it('announces domains.recheck_due on DOMAIN_RECHECK_CRON, once per firing, with the firing time', async () => {
  const events = await waitFor(() => {
    const seen = harness.published.filter((event) => event.type === 'domains.recheck_due');
    return seen.length >= 2 && seen;
  }, 10_000);
  const dueTimes = events.map((event) => Date.parse(event.data.dueAt));
  expect(new Set(dueTimes).size).toBe(dueTimes.length);
  expect(dueTimes[1]!).toBeGreaterThan(dueTimes[0]!);
  expect(Date.now() - dueTimes[0]!).toBeLessThan(60_000);
});

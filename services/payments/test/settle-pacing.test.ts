import { waitFor } from '@lockdrop/testing';
import { describe, expect, it } from 'vitest';
import { createSettlePacer } from '../src/modules/settlement/index.js';

// Issue 31: during a webhook storm the provider's deliveries are answered first and settlement
// waits until the storm passes, but never longer than the hold allows; under a steady load,
// claims are paced so payments settle in batches.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Group commits of `deliveries` every 10 ms for `ms`, as the charge inbox reports them. */
async function storm(pacer: { stored(deliveries: number): void }, ms: number, deliveries = 24) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    pacer.stored(deliveries);
    await sleep(10);
  }
}

describe('settle pacing (issue 31)', () => {
  it('never holds notifications that arrive one group commit at a time below the storm size', async () => {
    let wakes = 0;
    const pacer = createSettlePacer(() => wakes++, { stormBatch: 16, maxHoldMs: 1_000 });
    for (let batch = 0; batch < 20; batch++) {
      pacer.stored(15);
      expect(pacer.holding()).toBe(false);
      await sleep(5);
    }
    // Below the storm size the webhook route's own wake settles them; the pacer adds none.
    expect(wakes).toBe(0);
    pacer.stop();
  });

  it('holds while the storm lasts and wakes the settler once when it goes quiet', async () => {
    const wokenAt: number[] = [];
    const pacer = createSettlePacer(() => wokenAt.push(performance.now()), {
      stormBatch: 16,
      quietMs: 60,
      maxHoldMs: 5_000,
    });
    await storm(pacer, 300);
    expect(pacer.holding()).toBe(true);
    expect(wokenAt).toEqual([]);
    const lastBatchAt = performance.now();
    await waitFor(() => wokenAt.length > 0, 2_000, 'the settler woken after the storm');
    expect(wokenAt[0]! - lastBatchAt).toBeGreaterThanOrEqual(40);
    expect(pacer.holding()).toBe(false);
    await sleep(100);
    expect(wokenAt).toHaveLength(1);
    pacer.stop();
  });

  it('ends the hold after its longest, however long the storm, until the settler catches up', async () => {
    const wokenAt: number[] = [];
    const startedAt = performance.now();
    const pacer = createSettlePacer(() => wokenAt.push(performance.now()), {
      stormBatch: 16,
      quietMs: 60,
      maxHoldMs: 200,
    });
    await storm(pacer, 450);
    // Woken at the end of the hold, while the storm still went on, and not held since.
    expect(wokenAt).toHaveLength(1);
    expect(wokenAt[0]! - startedAt).toBeGreaterThanOrEqual(190);
    expect(wokenAt[0]! - startedAt).toBeLessThan(400);
    expect(pacer.holding()).toBe(false);
    // Caught up, the storm still going: the next storm batch starts a new hold.
    pacer.caughtUp();
    pacer.stored(24);
    expect(pacer.holding()).toBe(true);
    pacer.stop();
  });

  it('paces a steady load: after a claim that took every due event, the next waits for the cadence, and one wake answers everyone who asked meanwhile', async () => {
    const wokenAt: number[] = [];
    const pacer = createSettlePacer(() => wokenAt.push(performance.now()), {
      stormBatch: 16,
      maxHoldMs: 1_000,
      cadenceMs: 150,
    });
    // A payment after a quiet spell: nothing holds its claim.
    expect(pacer.holding()).toBe(false);
    const claimedAt = performance.now();
    pacer.claimedAllDue();
    for (let ask = 0; ask < 5; ask++) {
      expect(pacer.holding()).toBe(true);
      await sleep(10);
    }
    await waitFor(() => wokenAt.length > 0, 2_000, 'the settler woken when the cadence ends');
    expect(wokenAt[0]! - claimedAt).toBeGreaterThanOrEqual(140);
    expect(pacer.holding()).toBe(false);
    await sleep(200);
    expect(wokenAt).toHaveLength(1);
    pacer.stop();
  });

  it('a storm hold of 0 turns storms off: a storm-sized group commit neither holds nor wakes', () => {
    let wakes = 0;
    const pacer = createSettlePacer(() => wakes++, {
      stormBatch: 16,
      maxHoldMs: 0,
      cadenceMs: 250,
    });
    pacer.stored(50);
    expect(pacer.holding()).toBe(false);
    expect(wakes).toBe(0);
    pacer.stop();
  });

  it('a settler finding nothing due while the hold lasts does not end it', () => {
    const pacer = createSettlePacer(() => {}, { stormBatch: 16, maxHoldMs: 5_000 });
    pacer.stored(30);
    pacer.caughtUp();
    expect(pacer.holding()).toBe(true);
    pacer.stop();
  });
});

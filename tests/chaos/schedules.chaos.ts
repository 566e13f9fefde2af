import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@lockdrop/testing';
import { startCluster, type Cluster } from './support/cluster';
import { expectInvariants } from './support/invariants';
import { openCheckouts, openShop, providerCharges, webhookStorm, type Shop } from './support/shop';

/**
 * The worker's schedules with two worker replicas: the payout run fires every 5 seconds here
 * (production: business days), and each firing must run once, on one replica, however many
 * replicas hold the schedule.
 */
const SCHEDULE_SECONDS = 5;
let cluster: Cluster;
let shop: Shop;

beforeAll(async () => {
  cluster = await startCluster({ PAYOUT_CRON: `*/${SCHEDULE_SECONDS} * * * * *` });
  shop = await openShop(cluster, 'schedules');
});
afterAll(async () => {
  await cluster?.stop();
});

describe('scheduled payout runs with two workers', () => {
  it('fire once per tick, and pay a seller out once', async () => {
    const { txRefs } = await openCheckouts(cluster, shop.productId, 10);
    await webhookStorm(cluster, await providerCharges(cluster, txRefs));
    const started = Date.now();
    const firings = async () =>
      (
        await cluster.db.query<{ runs: number; events: number }>(
          `SELECT count(DISTINCT payload->'data'->>'runId')::int AS runs, count(*)::int AS events
           FROM worker.outbox WHERE type = 'payout.run_due'`,
        )
      ).rows[0]!;
    const before = await firings();
    // A day passes: these sales are past the refund window, so the next run pays them out.
    await cluster.db.query(
      `UPDATE payments.purchases SET paid_at = paid_at - interval '25 hours' WHERE seller_id = $1`,
      [shop.sellerId],
    );
    await waitFor(
      async () => {
        const { rows } = await cluster.db.query(
          `SELECT status FROM payments.payouts WHERE seller_id = $1`,
          [shop.sellerId],
        );
        return rows.length === 1 && rows[0].status === 'paid';
      },
      90_000,
      'the scheduled payout to be paid',
    );
    // Let a few more runs fire: the balance is paid out, so they must find nothing to pay.
    await new Promise((resolve) => setTimeout(resolve, 3 * SCHEDULE_SECONDS * 1000));
    const after = await firings();
    const elapsedTicks = Math.ceil((Date.now() - started) / (SCHEDULE_SECONDS * 1000));
    const runs = after.runs - before.runs;
    // Each firing emitted its run once (a job run by both replicas would emit it twice) and the
    // two replicas' schedules are one (two would double the firings).
    expect(after.events - before.events).toBe(runs);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(elapsedTicks + 1);
    const { rows: payouts } = await cluster.db.query(
      'SELECT run_id FROM payments.payouts WHERE seller_id = $1',
      [shop.sellerId],
    );
    expect(payouts).toHaveLength(1);
    expect(payouts[0].run_id).toMatch(/^scheduled:/);
    console.log(
      `schedules: ${runs} payout runs fired in ${elapsedTicks} ticks of ${SCHEDULE_SECONDS} s across two workers, 1 payout`,
    );
    await expectInvariants(cluster, { txRefs, label: 'scheduled payout runs on two workers' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, waitUntil } from '@lockdrop/testing';
import { startCluster, type Cluster } from './support/cluster';
import { expectInvariants } from './support/invariants';
import {
  openCheckouts,
  openShop,
  persistently,
  providerCharges,
  webhookStorm,
  type Shop,
} from './support/shop';

/**
 * Issue 32: BullMQ's Redis as a primary, a replica and three Sentinels on loopback; the worker
 * reaches it through REDIS_SENTINELS. The primary is killed -9 in the middle of a payout run —
 * once the payout provider has received the first transfer, while the others are queued or
 * being followed up — and the Sentinels promote the replica. Every payout is still sent to the
 * provider exactly once and ends paid.
 */
let cluster: Cluster;
const shops: Shop[] = [];
const txRefs: string[] = [];

beforeAll(async () => {
  cluster = await startCluster({}, { redisSentinel: true });
  for (const label of ['sentinel-a', 'sentinel-b', 'sentinel-c'])
    shops.push(await openShop(cluster, label));
});
afterAll(async () => {
  await cluster?.stop();
});

/** The sandbox payout provider's own record: one row per transfer it was asked to make. */
async function providerTransfers(payoutIds: string[]) {
  const { rows } = await cluster.db.query<{ reference: string; n: number }>(
    `SELECT reference, count(*)::int AS n FROM worker.sandbox_transfers
     WHERE reference = ANY($1) GROUP BY reference`,
    [payoutIds],
  );
  return rows;
}

describe('the Redis primary lost during a payout run', () => {
  it('Sentinel promotes the replica; each payout is sent once and paid', async () => {
    for (const shop of shops) {
      const sold = await openCheckouts(cluster, shop.productId, 4);
      txRefs.push(...sold.txRefs);
      await webhookStorm(cluster, await providerCharges(cluster, sold.txRefs));
    }
    // Past the refund window: every seller's earnings are available to withdraw.
    await cluster.db.query(
      `UPDATE payments.purchases SET paid_at = paid_at - interval '25 hours' WHERE seller_id = ANY($1)`,
      [shops.map((shop) => shop.sellerId)],
    );
    const group = cluster.redisGroup!;
    expect(await group.masterPort()).toBe(group.primary.port);

    const withdrawn = await Promise.all(
      shops.map((shop) =>
        persistently(() =>
          shop.seller.json<{ payouts: { id: string }[] }>('/api/payouts/withdraw', {}),
        ),
      ),
    );
    const payoutIds = withdrawn.flatMap(({ payouts }) => payouts.map((payout) => payout.id));
    expect(payoutIds).toHaveLength(shops.length);

    // Mid-run: the provider has the first transfer; the rest are queued or being followed up.
    const sentBeforeKill = await waitUntil(
      () => providerTransfers(payoutIds),
      (rows) => rows.length >= 1,
      60_000,
    );
    const pidsBefore = cluster.pids();
    const killedAt = Date.now();
    await group.primary.crash();
    await waitFor(
      async () => (await group.masterPort().catch(() => 0)) === group.replica.port,
      60_000,
      'the Sentinels to promote the replica',
    );
    const promotedAfterMs = Date.now() - killedAt;
    // The gateway and the worker ping Redis for readiness: both ready again means both followed
    // the Sentinels to the new primary (the old one stays dead).
    await cluster.allReady(30_000);

    await waitFor(
      async () => {
        const { rows } = await cluster.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM payments.payouts WHERE id = ANY($1) AND status = 'paid'`,
          [payoutIds],
        );
        return rows[0]!.n === payoutIds.length;
      },
      120_000,
      'every payout to be paid',
    );
    const paidAfterMs = Date.now() - killedAt;

    // Counted from the provider's side: one transfer per payout, none twice, none missing.
    const transfers = await providerTransfers(payoutIds);
    expect(transfers.map((row) => row.reference).sort()).toEqual([...payoutIds].sort());
    expect(transfers.every((row) => row.n === 1)).toBe(true);
    const invariants = await expectInvariants(cluster, {
      txRefs,
      label: 'a Redis primary killed during a payout run',
    });
    expect(invariants.payouts).toBe(payoutIds.length);
    expect(cluster.pids()).toEqual(pidsBefore);
    console.log(
      `Redis Sentinel: primary killed after ${sentBeforeKill.length} of ${payoutIds.length} transfers reached ` +
        `the provider; replica promoted after ${promotedAfterMs} ms; all ${payoutIds.length} payouts paid ` +
        `${paidAfterMs} ms after the kill; the provider holds ${transfers.length} transfers, one per payout`,
    );
  });
});

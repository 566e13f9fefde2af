import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, waitUntil } from '@lockdrop/testing';
import { startCluster, type Cluster } from './support/cluster';
import type { ProviderState } from './support/flutterwave';
import { expectProviderInvariants } from './support/invariants';
import { browser, deliverNotifications, openShop, persistently, type Shop } from './support/shop';

/**
 * Issue 32: BullMQ's Redis as a primary, a replica and three Sentinels on loopback; the worker
 * and the gateway reach it through REDIS_SENTINELS. The primary is killed -9 in the middle of a
 * payout run — once the payout provider holds the first transfer, while the others are queued
 * or being followed up — and the Sentinels promote the replica. Payouts go to the Flutterwave
 * fake in a process of its own (live keys), and "sent exactly once" is counted in the
 * provider's own records, read over HTTP: the sandbox adapter's table would be ours, and it
 * swallows a second send of a reference without a trace.
 */
let cluster: Cluster;
const shops: Shop[] = [];

beforeAll(async () => {
  cluster = await startCluster(
    // A transfer is followed up 1 s after it is made (doubling), a failed attempt retried after 1 s.
    { PAYOUT_POLL_MS: '1000', PAYOUT_BACKOFF_MS: '1000' },
    { redisSentinel: true, flutterwave: true },
  );
  for (const label of ['sentinel-a', 'sentinel-b', 'sentinel-c'])
    shops.push(await openShop(cluster, label));
});
afterAll(async () => {
  await cluster?.stop();
});

/** A buyer opens a checkout and pays on the provider's hosted page: the provider's notification. */
async function buy(productId: string) {
  const buyer = browser(cluster.baseUrl);
  const { txRef } = await persistently(
    () =>
      buyer.json<{ txRef: string }>('/api/checkout', {
        productId,
        buyerEmail: `sentinel-buyer-${randomBytes(4).toString('hex')}@example.com`,
      }),
    { alsoRetry: /product_not_published/ },
  );
  return cluster.flutterwave!.pay(txRef);
}

/** The provider's transfers for these payouts: what it was asked to send and did. */
const transfersFor = (state: ProviderState, payoutIds: string[]) =>
  state.transfers.filter((transfer) => payoutIds.includes(transfer.reference));

describe('the Redis primary lost during a payout run', () => {
  it('Sentinel promotes the replica; each payout is sent once, as the provider counts it, and paid', async () => {
    const provider = cluster.flutterwave!;
    const sales = [];
    for (const shop of shops)
      for (let index = 0; index < 4; index += 1) sales.push(await buy(shop.productId));
    await deliverNotifications(
      cluster,
      sales.map((sale) => sale.webhook),
    );
    const transactionIds = sales.map((sale) => String(sale.transaction.id));
    await waitFor(
      async () =>
        (
          await cluster.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM payments.purchases WHERE provider = 'flutterwave'
             AND provider_transaction_id = ANY($1)`,
            [transactionIds],
          )
        ).rows[0]!.n === sales.length,
      60_000,
      'every provider charge to be a purchase',
    );
    // Past the refund window: every seller's earnings are available to withdraw.
    await cluster.db.query(
      `UPDATE payments.purchases SET paid_at = paid_at - interval '25 hours' WHERE seller_id = ANY($1)`,
      [shops.map((shop) => shop.sellerId)],
    );
    const group = cluster.redisGroup!;
    expect(await group.masterPort()).toBe(group.primary.port);
    // The bank's word comes 3 s after each transfer is made: the jobs are following their
    // transfers up (delayed in Redis) when the primary goes.
    await provider.faults({ transfers: { completeAfterMs: 3_000 } });

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
      async () => transfersFor(await provider.state(), payoutIds),
      (transfers) => transfers.length >= 1,
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

    // Counted from the provider's side: one transfer per payout, none twice, none missing, each
    // SUCCESSFUL (expectProviderInvariants adds the amounts and each seller's sums).
    const transfers = transfersFor(await provider.state(), payoutIds);
    expect(transfers.map((transfer) => transfer.reference).sort()).toEqual([...payoutIds].sort());
    expect(transfers.map((transfer) => transfer.status)).toEqual(payoutIds.map(() => 'SUCCESSFUL'));
    const invariants = await expectProviderInvariants(cluster, {
      label: 'a Redis primary killed during a payout run',
    });
    expect(invariants.transfers).toBe(payoutIds.length);
    expect(invariants.paidPayouts).toBe(payoutIds.length);
    expect(invariants.charges).toBe(sales.length);
    expect(cluster.pids()).toEqual(pidsBefore);
    console.log(
      `Redis Sentinel: primary killed after ${sentBeforeKill.length} of ${payoutIds.length} transfers reached ` +
        `the provider; replica promoted after ${promotedAfterMs} ms; all ${payoutIds.length} payouts paid ` +
        `${paidAfterMs} ms after the kill; the provider's own records hold ${transfers.length} transfers, one per payout`,
    );
  });
});

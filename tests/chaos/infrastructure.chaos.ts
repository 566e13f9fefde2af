import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@lockdrop/testing';
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
 * The infrastructure under the services fails while they work: NATS and Redis killed and
 * restarted, the network to Postgres cut. The services reconnect by themselves, answer in the
 * error shape meanwhile, and lose nothing.
 */
let cluster: Cluster;
let shop: Shop;
const allTxRefs: string[] = [];

beforeAll(async () => {
  cluster = await startCluster();
  shop = await openShop(cluster, 'infrastructure');
});
afterAll(async () => {
  await cluster?.stop();
});

/** What a consumer logs when a handler failed and the event will be delivered again. */
const RETRY_LOG = 'event handler failed; will retry';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sales(count: number, meanwhile: () => Promise<void>) {
  const { txRefs } = await openCheckouts(cluster, shop.productId, count);
  allTxRefs.push(...txRefs);
  const bodies = await providerCharges(cluster, txRefs);
  const storm = await webhookStorm(cluster, bodies, { inFlight: 4, onFirstAccepted: meanwhile });
  return { txRefs, storm };
}

describe('when the infrastructure fails', () => {
  it('NATS killed and restarted mid-storm: services reconnect and the outboxes drain', async () => {
    await sales(40, () => cluster.nats.crashAndRestart(3_000));
    await expectInvariants(cluster, { txRefs: allTxRefs, label: 'a NATS restart' });
  });

  it('Redis killed and restarted during a payout: the queued job still runs, once', async () => {
    await sales(10, async () => undefined);
    await cluster.db.query(
      `UPDATE payments.purchases SET paid_at = paid_at - interval '25 hours' WHERE seller_id = $1`,
      [shop.sellerId],
    );
    const { payouts } = await persistently(() =>
      shop.seller.json<{ payouts: { id: string }[] }>('/api/payouts/withdraw', {}),
    );
    await cluster.redis.crash();
    // Redis holds the gateway's rate-limit counters: without it the storefront still answers.
    const storefront = await fetch(`${cluster.baseUrl}/api/products/${shop.productId}`);
    expect(storefront.status).toBe(200);
    await sleep(2_000);
    await cluster.redis.restart();
    await waitFor(
      async () => {
        const { rows } = await cluster.db.query(
          'SELECT status FROM payments.payouts WHERE id = $1',
          [payouts[0]!.id],
        );
        return rows[0].status === 'paid';
      },
      120_000,
      'the payout to be paid',
    );
    const invariants = await expectInvariants(cluster, {
      txRefs: allTxRefs,
      label: 'a Redis restart during a payout',
    });
    expect(invariants.payouts).toBe(1);
  });

  it('Postgres cut off for 8 s: 503s in the error shape, no dead letters, recovery on its own', async () => {
    const { txRefs } = await openCheckouts(cluster, shop.productId, 30);
    allTxRefs.push(...txRefs);
    const bodies = await providerCharges(cluster, txRefs);
    // Cut mid-storm, so events are on their way to consumers when the database goes.
    let cutAt = 0;
    const storm = webhookStorm(cluster, bodies, {
      inFlight: 4,
      onFirstAccepted: async () => {
        await cluster.cutDatabase();
        cutAt = Date.now();
      },
    });
    await waitFor(() => cutAt > 0, 30_000, 'the first webhook to be accepted');
    const outage = cutAt;
    const answers = await Promise.all(
      // One read from each service that keeps data; the storefront, a seller's screens.
      [
        `/api/products/${shop.productId}`,
        '/api/payouts/balances',
        '/api/uploads/usage',
        '/api/profile',
        '/api/analytics/overview',
      ].map(async (path) => {
        const started = Date.now();
        const response = await shop.seller.request(path);
        return {
          path,
          status: response.status,
          body: await response.json(),
          ms: Date.now() - started,
        };
      }),
    );
    for (const answer of answers) {
      expect(answer, answer.path).toMatchObject({
        status: 503,
        body: { error: { code: 'service_unavailable' } },
      });
      expect(answer.ms, answer.path).toBeLessThan(8_000);
    }
    // Readiness says so too, so an orchestrator stops routing to a replica that cannot work.
    const readiness = await fetch(`${cluster.replicaUrl('catalog', 'a')}/readyz`);
    expect(readiness.status).toBe(503);
    await sleep(Math.max(0, 8_000 - (Date.now() - outage)));
    await cluster.restoreDatabase();
    const { retried } = await storm;
    expect(retried).toBeGreaterThan(0);
    await cluster.allReady();
    await expectInvariants(cluster, { txRefs: allTxRefs, label: 'an 8 s Postgres outage' });
  });

  it('consumers wait out their database outage without dead-lettering a healthy event', async () => {
    const retriesBefore = cluster.logs.filter((line) => line.includes(RETRY_LOG)).length;
    // Payments takes sales while delivery and analytics cannot reach Postgres for 10 s.
    await cluster.cutDatabase(['delivery', 'analytics']);
    const { txRefs } = await openCheckouts(cluster, shop.productId, 20);
    allTxRefs.push(...txRefs);
    const { retried } = await webhookStorm(cluster, await providerCharges(cluster, txRefs));
    expect(retried).toBe(0);
    await sleep(10_000);
    const retries = cluster.logs.filter((line) => line.includes(RETRY_LOG)).length - retriesBefore;
    expect(retries).toBeGreaterThan(0);
    console.log(`database cut for delivery and analytics: ${retries} event deliveries retried`);
    await cluster.restoreDatabase();
    await expectInvariants(cluster, {
      txRefs: allTxRefs,
      label: 'a 10 s database outage under delivery and analytics',
    });
  });
});

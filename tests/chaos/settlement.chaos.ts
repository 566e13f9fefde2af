import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@lockdrop/testing';
import { startCluster, type Cluster } from './support/cluster';
import { expectInvariants } from './support/invariants';
import { openCheckouts, openShop, providerCharges, webhookStorm, type Shop } from './support/shop';

/**
 * Issue 31: webhooks are answered on store and settled in batches by a settler in every
 * payments replica. A burst of payments with duplicate deliveries while Postgres is cut, and
 * while a payments replica is killed in the middle of a batch: nothing lost, nothing twice.
 */
let cluster: Cluster;
let shop: Shop;
const allTxRefs: string[] = [];

beforeAll(async () => {
  // Small batches, so a kill lands in the middle of several; a 5 s provider timeout makes the
  // settler's lease 45 s (three verify rounds of 5 s, plus 30 s), so a dead replica's claims are
  // due again within this test's time.
  cluster = await startCluster({
    SETTLER_BATCH_SIZE: '20',
    SETTLER_VERIFY_CONCURRENCY: '8',
    PROVIDER_TIMEOUT_MS: '5000',
  });
  shop = await openShop(cluster, 'settlement');
});
afterAll(async () => {
  await cluster?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await cluster.db.query<{ n: number }>(sql, params);
  return Number(rows[0]!.n);
}

/** What the burst must leave, printed: credited once per payment, journals balanced. */
async function settlementInvariants(
  txRefs: string[],
  deliveries: number,
  label: string,
): Promise<void> {
  const invariants = await expectInvariants(cluster, { txRefs, label });
  const duplicatesCredited = await count(
    `SELECT coalesce(sum(n - 1), 0) AS n FROM (
       SELECT count(*) AS n FROM payments.purchases WHERE tx_ref = ANY($1) GROUP BY tx_ref
       UNION ALL
       SELECT count(*) FROM payments.outbox WHERE type = 'purchase.paid'
         AND payload->'data'->>'txRef' = ANY($1) GROUP BY payload->'data'->>'txRef') counted`,
    [txRefs],
  );
  const unbalanced = await count(
    `SELECT count(*) AS n FROM (SELECT journal_id FROM payments.ledger_entries
       GROUP BY journal_id HAVING sum(amount_minor) <> 0 OR count(DISTINCT currency) <> 1) j`,
    [],
  );
  // Every stored delivery is settled in the end, even one a killed replica held a lease on
  // (its purchase was made by a duplicate delivery meanwhile): the lease ends and a live
  // replica settles it.
  const unsettledSince = Date.now();
  const countUnsettled = () =>
    count(
      `SELECT count(*) AS n FROM payments.provider_events
       WHERE tx_ref = ANY($1) AND status <> 'processed'`,
      [txRefs],
    );
  const unsettledAtFirst = await countUnsettled();
  const unsettled = await waitFor(
    async () => {
      const n = await countUnsettled();
      return n === 0 ? { n } : Date.now() - unsettledSince > 90_000 ? { n } : false;
    },
    95_000,
    'stored events to be settled',
  ).then((result) => result.n);
  console.log(
    `settlement after ${label}: ${txRefs.length} payments sent in ${deliveries} deliveries, ` +
      `${invariants.purchases} purchases, ${invariants.entitlements} entitlements, ` +
      `${duplicatesCredited} duplicates credited, ${unbalanced} unbalanced journals, ` +
      `${unsettledAtFirst} stored events not yet settled then, ${unsettled} after ` +
      `${Math.round((Date.now() - unsettledSince) / 1000)} s`,
  );
  expect(invariants.paidByProvider).toBe(txRefs.length);
  expect(invariants.purchases).toBe(txRefs.length);
  expect(invariants.entitlements).toBe(txRefs.length);
  expect(duplicatesCredited).toBe(0);
  expect(unbalanced).toBe(0);
  expect(unsettled).toBe(0);
}

describe('settling a burst of webhooks in batches', () => {
  it('Postgres cut for 5 s mid-burst: every payment settles once', async () => {
    const { txRefs } = await openCheckouts(cluster, shop.productId, 150);
    allTxRefs.push(...txRefs);
    const bodies = await providerCharges(cluster, txRefs);
    let cutAt = 0;
    const storm = webhookStorm(cluster, bodies, {
      inFlight: 20,
      onFirstAccepted: async () => {
        await cluster.cutDatabase(['payments']);
        cutAt = Date.now();
        await sleep(5_000);
        await cluster.restoreDatabase();
      },
    });
    await waitFor(() => cutAt > 0, 60_000, 'the first webhook to be accepted');
    const { deliveries, retried } = await storm;
    // The provider's deliveries met the outage and were sent again.
    expect(retried).toBeGreaterThan(0);
    await settlementInvariants(txRefs, deliveries, 'a 5 s Postgres outage mid-burst');
  });

  it('a payments replica killed -9 in the middle of settling: every payment settles once', async () => {
    const { txRefs } = await openCheckouts(cluster, shop.productId, 150);
    allTxRefs.push(...txRefs);
    const bodies = await providerCharges(cluster, txRefs);
    let killedWith = -1;
    const storm = webhookStorm(cluster, bodies, {
      inFlight: 20,
      onFirstAccepted: async () => {
        // Once settlement is under way (some purchases, not all), replica a dies.
        await waitFor(
          async () =>
            (await count('SELECT count(*) AS n FROM payments.purchases WHERE tx_ref = ANY($1)', [
              txRefs,
            ])) > 0,
          30_000,
          'the first purchase of the burst',
        );
        killedWith = await count(
          'SELECT count(*) AS n FROM payments.purchases WHERE tx_ref = ANY($1)',
          [txRefs],
        );
        await cluster.killReplica('payments', 'a');
      },
    });
    const { deliveries, retried } = await storm;
    expect(killedWith).toBeGreaterThan(0);
    console.log(
      `payments-a killed with ${killedWith}/${txRefs.length} purchases settled; ${retried} deliveries sent again`,
    );
    await settlementInvariants(txRefs, deliveries, 'payments-a killed mid-batch');
  });
});

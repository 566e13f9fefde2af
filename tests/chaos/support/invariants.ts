import { expect } from 'vitest';
import { openDeadLetters } from '@lockdrop/bus';
import { waitUntil } from '@lockdrop/testing';
import type { Cluster } from './cluster';

export interface Invariants {
  checkouts: number;
  paidByProvider: number;
  purchases: number;
  entitlements: number;
  journals: number;
  processedEvents: number;
  payouts: number;
}

async function count(cluster: Cluster, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await cluster.db.query<{ n: number }>(sql, params);
  return Number(rows[0]!.n);
}

async function unsentOutboxRows(cluster: Cluster): Promise<number> {
  const { rows } = await cluster.db.query<{ table_schema: string }>(
    `SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'`,
  );
  let unsent = 0;
  for (const { table_schema: schema } of rows)
    unsent += await count(
      cluster,
      `SELECT count(*) AS n FROM "${schema}".outbox WHERE published_at IS NULL`,
    );
  return unsent;
}

/**
 * What must hold after any failure, once the system has caught up: every payment the provider
 * took for these checkouts is exactly one purchase and one entitlement; every ledger journal
 * and every seller's balance adds up; each sale counted once in analytics; no event left in an
 * outbox; nothing dead-lettered. Waits for the catching up, then checks, and returns the counts.
 */
export async function expectInvariants(
  cluster: Cluster,
  { txRefs, label }: { txRefs: string[]; label: string },
): Promise<Invariants> {
  const paidByProvider = await count(
    cluster,
    `SELECT count(*) AS n FROM payments.sandbox_payments WHERE tx_ref = ANY($1) AND status = 'successful'`,
    [txRefs],
  );
  const settled = () =>
    Promise.all([
      count(cluster, 'SELECT count(*) AS n FROM payments.purchases WHERE tx_ref = ANY($1)', [
        txRefs,
      ]),
      count(
        cluster,
        `SELECT count(*) AS n FROM delivery.entitlements e JOIN payments.purchases p ON p.id = e.purchase_id
         WHERE p.tx_ref = ANY($1)`,
        [txRefs],
      ),
      unsentOutboxRows(cluster),
    ]);
  const [purchases, entitlements] = await waitUntil(
    settled,
    ([purchases, entitlements, unsent]) =>
      purchases === paidByProvider && entitlements === paidByProvider && unsent === 0,
    120_000,
  );

  // Exactly one purchase per paid checkout, none for a checkout the provider did not charge.
  expect(
    await count(
      cluster,
      `SELECT count(*) AS n FROM payments.purchases p
       LEFT JOIN payments.sandbox_payments s ON s.tx_ref = p.tx_ref AND s.status = 'successful'
       WHERE p.tx_ref = ANY($1) AND s.tx_ref IS NULL`,
      [txRefs],
    ),
  ).toBe(0);
  expect(
    await count(
      cluster,
      `SELECT count(*) AS n FROM payments.checkouts WHERE tx_ref = ANY($1) AND status = 'paid'`,
      [txRefs],
    ),
  ).toBe(paidByProvider);

  // Every journal sums to zero, and each seller's balance is what they earned less what was paid out.
  expect(
    await count(
      cluster,
      `SELECT count(*) AS n FROM (SELECT journal_id FROM payments.ledger_entries
       GROUP BY journal_id HAVING sum(amount_minor) <> 0) unbalanced`,
    ),
  ).toBe(0);
  const { rows: sellers } = await cluster.db.query(
    `WITH ledger AS (
       SELECT seller_id, currency, -sum(amount_minor) AS owed FROM payments.ledger_entries
       WHERE account IN ('seller_earnings', 'seller_available', 'seller_in_transit')
       GROUP BY seller_id, currency),
     earned AS (
       SELECT seller_id, currency, sum(seller_earnings_minor) AS earned FROM payments.purchases
       WHERE status = 'paid' GROUP BY seller_id, currency),
     paid_out AS (
       SELECT seller_id, source_currency AS currency, sum(source_amount_minor) AS paid_out
       FROM payments.payouts WHERE status = 'paid' GROUP BY seller_id, source_currency)
     SELECT e.seller_id, e.currency, coalesce(l.owed, 0) AS owed, e.earned, coalesce(p.paid_out, 0) AS paid_out
     FROM earned e
     LEFT JOIN ledger l USING (seller_id, currency)
     LEFT JOIN paid_out p USING (seller_id, currency)`,
  );
  for (const seller of sellers)
    expect(Number(seller.owed), `seller ${seller.seller_id} ${seller.currency}`).toBe(
      Number(seller.earned) - Number(seller.paid_out),
    );

  // Each sale counted once by analytics, however often its event was delivered: a real sale in
  // its sales, a test sale (the cluster pays through the sandbox) apart in its test sales.
  const { rows: products } = await cluster.db.query<{ product_id: string }>(
    'SELECT DISTINCT product_id FROM payments.purchases WHERE tx_ref = ANY($1)',
    [txRefs],
  );
  await waitUntil(
    async () =>
      (
        await cluster.db.query(
          `SELECT p.product_id, count(*)::int AS purchases,
             (SELECT coalesce(sum(sales), 0)::int FROM analytics.product_daily d WHERE d.product_id = p.product_id)
             + (SELECT coalesce(sum(sales), 0)::int FROM analytics.product_daily_test_sales t WHERE t.product_id = p.product_id) AS counted
           FROM payments.purchases p WHERE p.product_id = ANY($1) GROUP BY p.product_id`,
          [products.map((row) => row.product_id)],
        )
      ).rows,
    (rows) => rows.every((row) => row.counted === row.purchases),
    30_000,
  );

  const deadLetters = await openDeadLetters({
    url: cluster.nats.url,
    namespace: cluster.namespace,
  });
  try {
    expect(
      (await deadLetters.list()).map((letter) => `${letter.consumer}: ${letter.reason}`),
    ).toEqual([]);
  } finally {
    await deadLetters.close();
  }

  const invariants: Invariants = {
    checkouts: txRefs.length,
    paidByProvider,
    purchases,
    entitlements,
    journals: await count(
      cluster,
      'SELECT count(DISTINCT journal_id) AS n FROM payments.ledger_entries',
    ),
    processedEvents: await processedEvents(cluster),
    payouts: await count(cluster, 'SELECT count(*) AS n FROM payments.payouts'),
  };
  console.log(
    `invariants after ${label}: ${invariants.checkouts} checkouts, ${paidByProvider} paid by the provider, ` +
      `${purchases} purchases, ${entitlements} entitlements, ${invariants.journals} balanced journals, ` +
      `${invariants.processedEvents} events applied once each, ${invariants.payouts} payouts, 0 unsent outbox rows, 0 dead letters`,
  );
  return invariants;
}

async function processedEvents(cluster: Cluster): Promise<number> {
  const { rows } = await cluster.db.query<{ table_schema: string }>(
    `SELECT table_schema FROM information_schema.tables WHERE table_name = 'processed_events'`,
  );
  let total = 0;
  for (const { table_schema: schema } of rows)
    total += await count(cluster, `SELECT count(*) AS n FROM "${schema}".processed_events`);
  return total;
}

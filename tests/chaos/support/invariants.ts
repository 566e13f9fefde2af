import { expect } from 'vitest';
import { openDeadLetters } from '@lockdrop/bus';
import { toMinor } from '@lockdrop/money';
import { waitUntil } from '@lockdrop/testing';
import type { Cluster } from './cluster';
import type { ProviderCharge } from './flutterwave';

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

  await expectBooksBalanced(cluster);

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

/**
 * What holds whatever the provider: every ledger journal sums to zero, each seller's balance is
 * what they earned less what was paid out, and nothing was dead-lettered.
 */
export async function expectBooksBalanced(cluster: Cluster): Promise<void> {
  // Every journal sums to zero, and each seller's balance is what they earned less what was paid
  // out — and less the processor's fee on each sale refunded or charged back, which the provider
  // keeps and the seller bears (payments' PROCESSOR_FEE_REFUNDED, off unless set).
  const feeKept = cluster.env.PROCESSOR_FEE_REFUNDED !== 'true';
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
       FROM payments.payouts WHERE status = 'paid' GROUP BY seller_id, source_currency),
     fees_borne AS (
       SELECT seller_id, currency, sum(fee_processor_minor) AS borne FROM payments.purchases
       WHERE status = 'refunded' AND $1 GROUP BY seller_id, currency)
     SELECT e.seller_id, e.currency, coalesce(l.owed, 0) AS owed, e.earned,
       coalesce(p.paid_out, 0) AS paid_out, coalesce(f.borne, 0) AS borne
     FROM earned e
     LEFT JOIN ledger l USING (seller_id, currency)
     LEFT JOIN paid_out p USING (seller_id, currency)
     LEFT JOIN fees_borne f USING (seller_id, currency)`,
    [feeKept],
  );
  for (const seller of sellers)
    expect(Number(seller.owed), `seller ${seller.seller_id} ${seller.currency}`).toBe(
      Number(seller.earned) - Number(seller.paid_out) - Number(seller.borne),
    );

  const deadLetters = await openDeadLetters({
    url: cluster.nats.url,
    namespace: cluster.namespace,
    auth: cluster.natsAuth,
  });
  try {
    expect(
      (await deadLetters.list()).map((letter) => `${letter.consumer}: ${letter.reason}`),
    ).toEqual([]);
  } finally {
    await deadLetters.close();
  }
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

export interface ProviderInvariants {
  charges: number;
  purchases: number;
  renewals: number;
  subscriptions: number;
  transfers: number;
  paidPayouts: number;
  failedPayouts: number;
}

/**
 * The provider's own records (the Flutterwave fake's state, over HTTP) against ours, once the
 * system has caught up: every successful charge is exactly one purchase of the same amount and
 * currency, and a charge under a payment plan is credited to the one subscription that plan's
 * provider subscription started with; every transfer the provider made is exactly one payout —
 * paid when the provider says SUCCESSFUL, failed only when it says FAILED — and every paid
 * payout is one SUCCESSFUL transfer of its amount. Then the books (`expectBooksBalanced`).
 */
export async function expectProviderInvariants(
  cluster: Cluster,
  { label }: { label: string },
): Promise<ProviderInvariants> {
  const provider = cluster.flutterwave!;
  const state = await provider.state();
  const charges = state.charges.filter((charge) => charge.status === 'successful');
  const ids = charges.map((charge) => String(charge.id));
  await waitUntil(
    async () =>
      Promise.all([
        count(
          cluster,
          `SELECT count(*) AS n FROM payments.purchases WHERE provider = 'flutterwave'
           AND provider_transaction_id = ANY($1)`,
          [ids],
        ),
        unsentOutboxRows(cluster),
      ]),
    ([purchases, unsent]) => purchases === charges.length && unsent === 0,
    120_000,
  );
  const { rows: purchases } = await cluster.db.query<{
    provider_transaction_id: string;
    amount_minor: string;
    currency: string;
    subscription_id: string | null;
    renewal: boolean;
  }>(
    `SELECT provider_transaction_id, amount_minor, currency, subscription_id, renewal
     FROM payments.purchases WHERE provider = 'flutterwave'`,
  );
  const purchasesOf = (charge: ProviderCharge) =>
    purchases.filter((purchase) => purchase.provider_transaction_id === String(charge.id));
  for (const charge of charges) {
    const credited = purchasesOf(charge);
    expect(credited, `provider charge ${charge.id} (${charge.tx_ref})`).toHaveLength(1);
    expect(Number(credited[0]!.amount_minor)).toBe(toMinor(charge.amount, charge.currency));
    expect(credited[0]!.currency).toBe(charge.currency);
  }
  // No purchase the provider never charged.
  expect(purchases.filter((purchase) => !ids.includes(purchase.provider_transaction_id))).toEqual(
    [],
  );

  // A provider subscription is its plan's (one plan per Lockdrop subscription); the Lockdrop
  // subscription it belongs to is the one its first charge — a tx_ref we issued — started.
  let renewals = 0;
  for (const subscription of state.subscriptions) {
    const underPlan = charges
      .filter((charge) => charge.payment_plan === subscription.plan)
      .filter((charge) => charge.customer.email === subscription.customer.customer_email);
    // The provider's transaction ids grow: the oldest charge under the plan is the one the
    // buyer paid on our hosted page, which made the provider subscription.
    const first = underPlan.sort((a, b) => a.id - b.id)[0];
    expect(first, `the first charge of provider subscription ${subscription.id}`).toBeDefined();
    const owner = purchasesOf(first!)[0]!.subscription_id;
    expect(owner).not.toBeNull();
    for (const charge of underPlan) {
      expect(purchasesOf(charge)[0]!.subscription_id, `charge ${charge.id}`).toBe(owner);
      if (charge !== first) renewals += 1;
    }
  }
  expect(
    await count(cluster, 'SELECT count(*) AS n FROM payments.unmatched_renewals'),
    'renewals parked as nobody’s',
  ).toBe(0);

  const { rows: payouts } = await cluster.db.query<{
    id: string;
    status: string;
    amount_minor: string;
    currency: string;
  }>('SELECT id, status, amount_minor, currency FROM payments.payouts');
  const transfersOf = (payoutId: string) =>
    state.transfers.filter((transfer) => transfer.reference === payoutId);
  const ours = state.transfers.filter((transfer) => !transfer.reference.startsWith('other-'));
  for (const transfer of ours) {
    const payout = payouts.find((candidate) => candidate.id === transfer.reference);
    expect(payout, `provider transfer ${transfer.reference}`).toBeDefined();
    expect(transfersOf(payout!.id), `transfers for payout ${payout!.id}`).toHaveLength(1);
    expect(toMinor(transfer.amount, transfer.currency)).toBe(Number(payout!.amount_minor));
    expect(transfer.currency).toBe(payout!.currency);
    if (transfer.status === 'SUCCESSFUL') expect(payout!.status, transfer.reference).toBe('paid');
    if (transfer.status === 'FAILED') expect(payout!.status, transfer.reference).toBe('failed');
  }
  for (const payout of payouts.filter((candidate) => candidate.status === 'paid'))
    expect(transfersOf(payout.id).map((transfer) => transfer.status)).toEqual(['SUCCESSFUL']);
  for (const payout of payouts.filter((candidate) => candidate.status === 'failed'))
    expect(transfersOf(payout.id).every((transfer) => transfer.status === 'FAILED')).toBe(true);

  await expectBooksBalanced(cluster);
  const invariants: ProviderInvariants = {
    charges: charges.length,
    purchases: purchases.length,
    renewals,
    subscriptions: state.subscriptions.length,
    transfers: ours.length,
    paidPayouts: payouts.filter((payout) => payout.status === 'paid').length,
    failedPayouts: payouts.filter((payout) => payout.status === 'failed').length,
  };
  console.log(
    `invariants after ${label} (the provider's own records): ${invariants.charges} successful charges, ` +
      `each exactly one purchase of its amount (${invariants.purchases} purchases); ${invariants.renewals} renewals ` +
      `across ${invariants.subscriptions} provider subscriptions, each credited to the subscription it belongs to, 0 parked; ` +
      `${invariants.transfers} transfers, each exactly one payout (${invariants.paidPayouts} paid, ${invariants.failedPayouts} failed ` +
      `on the provider's FAILED); balanced journals and balances, 0 unsent outbox rows, 0 dead letters`,
  );
  return invariants;
}

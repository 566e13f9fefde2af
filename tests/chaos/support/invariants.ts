import { expect } from 'vitest';
import { openDeadLetters, withClusterRetry } from '@lockdrop/bus';
import { toMinor } from '@lockdrop/money';
import { waitUntil } from '@lockdrop/testing';
import type { Cluster } from './cluster';
import type { ProviderCharge, ProviderState } from './flutterwave';

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
    // Checked right after a node is killed, while its streams elect their next leader.
    expect(
      (await withClusterRetry(() => deadLetters.list(), 15_000)).map(
        (letter) => `${letter.consumer}: ${letter.reason}`,
      ),
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
  /** Our charges the provider refunded (one or more completed records each). */
  refundedByProvider: number;
  /** The provider's refund records of our charges (a provider duplicate is two for one request). */
  providerRefundRecords: number;
  /** Sales reversed by a chargeback. */
  chargebacks: number;
  /** Sales whose refund is still unknown (`refunding`, access held). */
  refundsUnderWay: number;
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
    seller_id: string;
    status: string;
    amount_minor: string;
    currency: string;
  }>('SELECT id, seller_id, status, amount_minor, currency FROM payments.payouts');
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
  await expectTransferSums(cluster, state, payouts);

  const refunds = await expectProviderRefunds(cluster, state, charges);
  await expectBooksBalanced(cluster);
  const invariants: ProviderInvariants = {
    charges: charges.length,
    purchases: purchases.length,
    renewals,
    subscriptions: state.subscriptions.length,
    transfers: ours.length,
    paidPayouts: payouts.filter((payout) => payout.status === 'paid').length,
    failedPayouts: payouts.filter((payout) => payout.status === 'failed').length,
    ...refunds,
  };
  console.log(
    `invariants after ${label} (the provider's own records): ${invariants.charges} successful charges, ` +
      `each exactly one purchase of its amount (${invariants.purchases} purchases); ${invariants.renewals} renewals ` +
      `across ${invariants.subscriptions} provider subscriptions, each credited to the subscription it belongs to, 0 parked; ` +
      `${invariants.transfers} transfers, each exactly one payout (${invariants.paidPayouts} paid, ${invariants.failedPayouts} failed ` +
      `on the provider's FAILED), the provider's SUCCESSFUL transfers per seller summing to that seller's paid payouts ` +
      `and each failed one's amount back in available; ${invariants.refundedByProvider} sales refunded by the provider ` +
      `(${invariants.providerRefundRecords} refund records), each exactly one refunded purchase with access revoked, ` +
      `none asked of the provider twice, none failed while the provider refunded, ${invariants.refundsUnderWay} still unknown ` +
      `with access held; ${invariants.chargebacks} chargebacks; balanced journals and balances, 0 unsent outbox rows, 0 dead letters`,
  );
  return invariants;
}

/**
 * Transfers by sum, per seller and currency, from the provider's records: its SUCCESSFUL
 * transfers add up to exactly the seller's paid payouts (a transfer made twice, or a payout
 * booked paid that the provider never sent, shows as a difference). A failed payout's amount is
 * back in the seller's available balance (the `payout_failed` journal credits exactly what the
 * payout took), and what sits in transit is exactly the payouts not yet concluded.
 */
async function expectTransferSums(
  cluster: Cluster,
  state: ProviderState,
  payouts: Array<{
    id: string;
    seller_id: string;
    status: string;
    amount_minor: string;
    currency: string;
  }>,
): Promise<void> {
  const sellerOf = new Map(payouts.map((payout) => [payout.id, payout.seller_id]));
  const add = (sums: Record<string, number>, key: string, minor: number) => {
    sums[key] = (sums[key] ?? 0) + minor;
  };
  const transferred: Record<string, number> = {};
  for (const transfer of state.transfers.filter((candidate) => candidate.status === 'SUCCESSFUL')) {
    const seller = sellerOf.get(transfer.reference);
    if (transfer.reference.startsWith('other-')) continue;
    add(
      transferred,
      `${seller ?? `no payout ${transfer.reference}`} ${transfer.currency}`,
      toMinor(transfer.amount, transfer.currency),
    );
  }
  const paid: Record<string, number> = {};
  for (const payout of payouts.filter((candidate) => candidate.status === 'paid'))
    add(paid, `${payout.seller_id} ${payout.currency}`, Number(payout.amount_minor));
  expect(transferred, "the provider's transfers per seller against their paid payouts").toEqual(
    paid,
  );

  const { rows: failed } = await cluster.db.query<{
    id: string;
    source_amount_minor: string;
    returned: string | null;
  }>(
    `SELECT p.id, p.source_amount_minor,
       (SELECT -sum(l.amount_minor) FROM payments.ledger_entries l WHERE l.payout_id = p.id
        AND l.kind = 'payout_failed' AND l.account = 'seller_available') AS returned
     FROM payments.payouts p WHERE p.status = 'failed'`,
  );
  for (const payout of failed)
    expect(Number(payout.returned ?? 0), `failed payout ${payout.id} back in available`).toBe(
      Number(payout.source_amount_minor),
    );
  const { rows: inTransit } = await cluster.db.query<{
    seller_id: string;
    currency: string;
    held: string;
    open: string;
  }>(
    `WITH held AS (
       SELECT seller_id, currency, -sum(amount_minor) AS held FROM payments.ledger_entries
       WHERE account = 'seller_in_transit' GROUP BY seller_id, currency),
     open AS (
       SELECT seller_id, currency, sum(amount_minor) AS open FROM payments.payouts
       WHERE status NOT IN ('paid', 'failed') GROUP BY seller_id, currency)
     SELECT seller_id, currency, coalesce(held.held, 0) AS held, coalesce(open.open, 0) AS open
     FROM held FULL JOIN open USING (seller_id, currency)`,
  );
  for (const row of inTransit)
    expect(Number(row.held), `in transit for ${row.seller_id} ${row.currency}`).toBe(
      Number(row.open),
    );
}

/**
 * Refunds against the provider's own records, once each refund has an outcome on our side:
 * every charge of ours the provider refunded is exactly one purchase, refunded, by one succeeded
 * refund naming one of the provider's refund records of that charge, never a failed one (no
 * "failed" concluded while the provider had refunded), with access revoked; the provider was
 * asked at most once per charge, for the whole amount; every refund we booked is one the
 * provider made, every chargeback one it holds; a refund still unknown keeps access held.
 */
async function expectProviderRefunds(
  cluster: Cluster,
  state: ProviderState,
  charges: ProviderCharge[],
): Promise<
  Pick<
    ProviderInvariants,
    'refundedByProvider' | 'providerRefundRecords' | 'chargebacks' | 'refundsUnderWay'
  >
> {
  const ours = new Map(charges.map((charge) => [charge.id, charge]));
  const records = state.refunds.filter((record) => ours.has(record.tx_id));
  const refundedAtProvider = [
    ...new Set(records.filter((record) => record.status === 'completed').map((r) => r.tx_id)),
  ];
  const readPurchases = async () =>
    (
      await cluster.db.query<{
        id: string;
        provider_transaction_id: string;
        status: string;
        amount_minor: string;
        revoked: boolean | null;
        held: boolean | null;
      }>(
        `SELECT p.id, p.provider_transaction_id, p.status, p.amount_minor,
           e.revoked_at IS NOT NULL AS revoked, e.refund_hold IS NOT NULL AS held
         FROM payments.purchases p LEFT JOIN delivery.entitlements e ON e.purchase_id = p.id
         WHERE p.provider = 'flutterwave'`,
      )
    ).rows;
  // Caught up: each refund the provider made has an outcome on our side (whichever it is —
  // the checks below say whether it is the right one), and delivery has acted on it.
  const purchases = await waitUntil(
    readPurchases,
    (rows) =>
      refundedAtProvider.every((transactionId) =>
        rows.some(
          (row) =>
            row.provider_transaction_id === String(transactionId) &&
            row.status !== 'refunding' &&
            (row.status !== 'refunded' || row.revoked === true),
        ),
      ) && rows.every((row) => row.status !== 'refunded' || row.revoked === true),
    120_000,
  );
  const purchaseOf = (transactionId: number) =>
    purchases.find((row) => row.provider_transaction_id === String(transactionId))!;
  const { rows: ourRefunds } = await cluster.db.query<{
    purchase_id: string;
    kind: 'refund' | 'chargeback';
    status: string;
    provider_refund_id: string | null;
    failure_reason: string | null;
  }>(
    `SELECT r.purchase_id, r.kind, r.status, r.provider_refund_id, r.failure_reason
     FROM payments.refunds r JOIN payments.purchases p ON p.id = r.purchase_id
     WHERE p.provider = 'flutterwave'`,
  );
  for (const transactionId of refundedAtProvider) {
    const purchase = purchaseOf(transactionId);
    expect(purchase.status, `the purchase of refunded charge ${transactionId}`).toBe('refunded');
    expect(purchase.revoked, `access to refunded charge ${transactionId}`).toBe(true);
    const refundsOf = ourRefunds.filter((refund) => refund.purchase_id === purchase.id);
    const providerIds = records
      .filter((record) => record.tx_id === transactionId)
      .map((record) => String(record.id));
    expect(
      refundsOf.filter((refund) => refund.status === 'succeeded'),
      `our refund of charge ${transactionId}`,
    ).toEqual([
      expect.objectContaining({ kind: 'refund', provider_refund_id: expect.any(String) }),
    ]);
    expect(providerIds).toContain(
      refundsOf.find((refund) => refund.status === 'succeeded')!.provider_refund_id,
    );
    expect(
      refundsOf.filter((refund) => refund.status === 'failed'),
      `a refund of charge ${transactionId} booked failed although the provider refunded`,
    ).toEqual([]);
  }
  // Asked once per charge, for all of it: a retry, a second click or a second replica never
  // made the provider refund again.
  const asked = new Map<number, number>();
  for (const request of state.refundRequests.filter((r) => ours.has(r.transactionId))) {
    asked.set(request.transactionId, (asked.get(request.transactionId) ?? 0) + 1);
    const charge = ours.get(request.transactionId)!;
    expect(
      toMinor(Number(request.amount), charge.currency),
      `the refund asked for charge ${charge.id}`,
    ).toBe(Number(purchaseOf(charge.id).amount_minor));
  }
  expect(
    [...asked].filter(([, times]) => times > 1),
    'charges the provider was asked to refund more than once',
  ).toEqual([]);
  // Nothing booked that the provider did not do.
  for (const refund of ourRefunds.filter((candidate) => candidate.status === 'succeeded')) {
    const transactionId = Number(
      purchases.find((row) => row.id === refund.purchase_id)!.provider_transaction_id,
    );
    if (refund.kind === 'refund')
      expect(refundedAtProvider, `refund of purchase ${refund.purchase_id}`).toContain(
        transactionId,
      );
    else
      expect(
        state.chargebacks.map((chargeback) => chargeback.tx_id),
        `chargeback of purchase ${refund.purchase_id}`,
      ).toContain(transactionId);
  }
  const underWay = purchases.filter((row) => row.status === 'refunding');
  for (const purchase of underWay)
    expect(purchase.held, `access to ${purchase.id} while its refund is unknown`).toBe(true);
  return {
    refundedByProvider: refundedAtProvider.length,
    providerRefundRecords: records.length,
    chargebacks: ourRefunds.filter(
      (refund) => refund.kind === 'chargeback' && refund.status === 'succeeded',
    ).length,
    refundsUnderWay: underWay.length,
  };
}

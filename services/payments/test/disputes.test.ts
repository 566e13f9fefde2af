import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/providers/sandbox.js';
import { startFakeFlutterwave, type FakeFlutterwave } from './fake-flutterwave.js';
import {
  browser,
  fetchJson,
  ledgerOf,
  sell,
  startHarness,
  waitFor,
  type Harness,
} from './support.js';

/**
 * Issue 30 item 7: a signed `charge.dispute` is only a prompt. The provider's own record of a
 * dispute of that transaction decides; a dispute the seller wins restores the sale.
 */
describe('disputes through Flutterwave (fake v3 API)', () => {
  let fake: FakeFlutterwave;
  let harness: Harness;

  beforeAll(async () => {
    fake = await startFakeFlutterwave();
    harness = await startHarness({
      ...fake.env,
      PROVIDER_TIMEOUT_MS: '400',
      PUBLIC_URL: 'https://lockdrop.test',
    });
  });
  afterAll(async () => {
    await harness?.close();
    await fake?.close();
  });
  beforeEach(() => {
    Object.assign(fake.failures, { verify: 'none', payments: 'none', refund: 'none' });
    // The chargeback list at its worst: filters ignored, two records a page.
    Object.assign(fake.refundList, { ignoreFilters: true, pageSize: 2, lookup: 'none' });
  });

  const deliver = (body: unknown) => {
    const raw = JSON.stringify(body);
    return fetchJson(`${harness.url}/api/webhooks/flutterwave`, {
      method: 'POST',
      headers: fake.signedHeaders(raw),
      body: raw,
    });
  };
  const disputeNotice = (transactionId: number, status: string, id: number | string = 771) => ({
    event: 'charge.dispute',
    data: { id, transaction_id: transactionId, status },
  });

  async function paidPurchase() {
    const product = await harness.publishProduct();
    const buyer = browser(harness.url);
    const started = await buyer.postJson('/api/checkout', {
      productId: product.productId,
      buyerEmail: `buyer-${randomUUID()}@example.com`,
    });
    const { txRef } = (await started.json()) as { txRef: string };
    const transaction = fake.pay(txRef);
    await deliver(fake.envelopeWebhook(transaction));
    let purchase: Record<string, unknown> & { id: string } = { id: '' };
    await waitFor(async () => {
      const { rows } = await harness.pool.query('SELECT * FROM purchases WHERE tx_ref = $1', [
        txRef,
      ]);
      purchase = rows[0];
      return Boolean(purchase);
    });
    await waitFor(async () => eventsOf('purchase.paid', purchase.id).length === 1);
    return { purchase, transactionId: transaction.id };
  }

  const eventsOf = (type: string, purchaseId: string) =>
    harness.published.filter(
      (event) => event.type === type && event.data.purchaseId === purchaseId,
    );
  const statusOf = async (purchaseId: string) =>
    (await harness.pool.query('SELECT status FROM purchases WHERE id = $1', [purchaseId])).rows[0]
      .status;
  const refundsOf = async (purchaseId: string) =>
    (
      await harness.pool.query(
        'SELECT kind, status FROM refunds WHERE purchase_id = $1 ORDER BY requested_at',
        [purchaseId],
      )
    ).rows;
  const journalSum = async (purchaseId: string, account: string) =>
    (await ledgerOf(harness.pool, purchaseId))
      .filter((line) => line.account === account)
      .reduce((sum, line) => sum + line.amount_minor, 0);

  it('a forged but correctly signed dispute the provider has no record of changes nothing', async () => {
    // Other transactions do have disputes: the (ignored) filter lists them, never ours.
    const other = await paidPurchase();
    fake.dispute(other.transactionId, 'initiated');
    const { purchase, transactionId } = await paidPurchase();
    const readsBefore = fake.chargebackReads.length;

    const forged = await deliver(disputeNotice(transactionId, 'initiated', 'forged-1'));
    expect(forged.status).toBe(200);
    expect((await forged.json()).outcome).toBe('dispute_not_confirmed');
    // The provider was asked, and its whole list read.
    expect(fake.chargebackReads.length).toBeGreaterThan(readsBefore);

    // Watermark: a genuine dispute of the other purchase, processed after the forged one; once
    // its purchase.refunded is out, anything the forged one caused would be out too.
    const genuine = await deliver(disputeNotice(other.transactionId, 'initiated', 'real-1'));
    expect((await genuine.json()).outcome).toBe('chargeback_recorded');
    await waitFor(async () => eventsOf('purchase.refunded', other.purchase.id).length === 1);

    expect(await statusOf(purchase.id)).toBe('paid');
    expect(await refundsOf(purchase.id)).toEqual([]);
    expect(eventsOf('purchase.refunded', purchase.id)).toHaveLength(0);
    expect(
      (await ledgerOf(harness.pool, purchase.id)).filter((line) => line.kind !== 'payment'),
    ).toEqual([]);
    // A forged "won" cannot reinstate a sale whose dispute the provider still has open.
    const forgedWin = await deliver(disputeNotice(other.transactionId, 'won', 'forged-2'));
    expect((await forgedWin.json()).outcome).not.toBe('dispute_won');
    expect(await statusOf(other.purchase.id)).toBe('refunded');
  });

  it('a dispute the provider confirms reverses the sale once, however often it is notified', async () => {
    const { purchase, transactionId } = await paidPurchase();
    fake.dispute(transactionId, 'initiated');
    const notices = [
      disputeNotice(transactionId, 'initiated', 881),
      disputeNotice(transactionId, 'initiated', 881),
      disputeNotice(transactionId, 'pending', 881),
    ];
    const outcomes = [];
    for (const notice of notices) outcomes.push((await (await deliver(notice)).json()).outcome);
    expect(outcomes).toEqual(['chargeback_recorded', 'duplicate', 'ignored']);
    expect(await statusOf(purchase.id)).toBe('refunded');
    expect(await refundsOf(purchase.id)).toEqual([{ kind: 'chargeback', status: 'succeeded' }]);
    const refundLines = (await ledgerOf(harness.pool, purchase.id)).filter(
      (line) => line.kind === 'refund',
    );
    expect(refundLines.filter((line) => line.account === 'buyer_payments')).toHaveLength(1);
    expect(refundLines.reduce((sum, line) => sum + line.amount_minor, 0)).toBe(0);
    await waitFor(async () => eventsOf('purchase.refunded', purchase.id).length > 0);
    expect(eventsOf('purchase.refunded', purchase.id)).toHaveLength(1);
    // Sellers' webhooks tell a chargeback (sale.disputed) from a refund by this.
    expect(eventsOf('purchase.refunded', purchase.id)[0]!.data.reason).toBe('chargeback');
  });

  it('a dispute the seller wins restores the sale: paid again, journal reversed back, access restored', async () => {
    const { purchase, transactionId } = await paidPurchase();
    const sellerBefore = await journalSum(purchase.id, 'seller_earnings');
    fake.dispute(transactionId, 'initiated');
    expect(
      (await (await deliver(disputeNotice(transactionId, 'initiated', 991))).json()).outcome,
    ).toBe('chargeback_recorded');
    expect(await journalSum(purchase.id, 'seller_earnings')).not.toBe(sellerBefore);

    fake.dispute(transactionId, 'won');
    const won = await deliver(disputeNotice(transactionId, 'won', 991));
    expect((await won.json()).outcome).toBe('dispute_won');
    expect(await statusOf(purchase.id)).toBe('paid');
    expect(await refundsOf(purchase.id)).toEqual([{ kind: 'chargeback', status: 'reversed' }]);
    // Every account is back where the payment left it.
    for (const account of [
      'buyer_payments',
      'seller_earnings',
      'platform_fees',
      'processor_fees',
    ]) {
      const payment = (await ledgerOf(harness.pool, purchase.id))
        .filter((line) => line.kind === 'payment' && line.account === account)
        .reduce((sum, line) => sum + line.amount_minor, 0);
      expect(await journalSum(purchase.id, account), account).toBe(payment);
    }
    await waitFor(async () => eventsOf('purchase.reinstated', purchase.id).length === 1);
    expect(eventsOf('purchase.reinstated', purchase.id)[0]!.data).toMatchObject({
      purchaseId: purchase.id,
      reason: 'dispute_won',
    });
    // A repeat changes nothing.
    expect((await (await deliver(disputeNotice(transactionId, 'won', 992))).json()).outcome).toBe(
      'ignored',
    );
    expect(
      (await ledgerOf(harness.pool, purchase.id)).filter((line) => line.kind === 'dispute_won')
        .length,
    ).toBeGreaterThan(0);
  });

  it('a dispute the provider cannot confirm now is asked for again (non-200), not dropped', async () => {
    const { purchase, transactionId } = await paidPurchase();
    fake.dispute(transactionId, 'initiated');
    fake.refundList.lookup = '5xx';
    const first = await deliver(disputeNotice(transactionId, 'initiated', 1201));
    expect(first.status).toBe(503);
    expect(await statusOf(purchase.id)).toBe('paid');
    fake.refundList.lookup = 'none';
    const redelivered = await deliver(disputeNotice(transactionId, 'initiated', 1201));
    expect((await redelivered.json()).outcome).toBe('chargeback_recorded');
    expect(await statusOf(purchase.id)).toBe('refunded');
  });
});

describe('disputes through the sandbox (the compose demo)', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ SANDBOX_WEBHOOK_SECRET: 'compose-demo-sandbox-webhook-secret' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('a dispute signed with the published secret for a sequential id revokes nothing; a sandbox dispute does', async () => {
    const { purchaseId } = await sell(harness);
    const { rows } = await harness.pool.query(
      'SELECT provider_transaction_id AS id FROM purchases WHERE id = $1',
      [purchaseId],
    );
    const transactionId = String(rows[0].id);
    const { createHmac } = await import('node:crypto');
    const secret = 'compose-demo-sandbox-webhook-secret';
    const raw = JSON.stringify({
      event: 'charge.dispute',
      data: { id: 'forged', transaction_id: Number(transactionId), status: 'initiated' },
    });
    const forged = await fetchJson(`${harness.url}/api/webhooks/sandbox`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'verif-hash': secret,
        'flutterwave-signature': createHmac('sha256', secret).update(raw).digest('base64'),
      },
      body: raw,
    });
    expect((await forged.json()).outcome).toBe('dispute_not_confirmed');

    // The sandbox's own dispute control records it on the "provider side" and sends the webhook.
    const sandbox = createSandbox({
      pool: harness.pool,
      publicUrl: harness.url,
      webhookSecret: secret,
      processorFeeBps: 350,
      webhookUrl: () => `${harness.url}/api/webhooks/sandbox`,
      retryDelaysMs: [],
      logger: { warn: () => undefined },
    });
    try {
      expect(await sandbox.dispute(transactionId, 'open')).toBe(true);
      await waitFor(async () => {
        const { rows: purchase } = await harness.pool.query(
          'SELECT status FROM purchases WHERE id = $1',
          [purchaseId],
        );
        return purchase[0].status === 'refunded';
      });
      expect(await sandbox.dispute(transactionId, 'won')).toBe(true);
      await waitFor(async () =>
        harness.published.some(
          (event) => event.type === 'purchase.reinstated' && event.data.purchaseId === purchaseId,
        ),
      );
      const { rows: after } = await harness.pool.query(
        'SELECT status FROM purchases WHERE id = $1',
        [purchaseId],
      );
      expect(after[0].status).toBe('paid');
    } finally {
      await sandbox.stop();
    }
  });
});

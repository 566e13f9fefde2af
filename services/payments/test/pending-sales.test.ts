import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, fetchJson, startHarness, waitFor, type Harness } from './support.js';

/**
 * Issue 27's `sale.pending`: a bank transfer (or USSD) payment the provider's verify API reports
 * pending is announced as `purchase.pending` once per transaction, with the id the sale then
 * has, and its end — paid or failed — names the same sale. A webhook's word alone announces
 * nothing.
 */
const WEBHOOK_SECRET = 'compose-demo-sandbox-webhook-secret';
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET });
});
afterAll(() => harness?.close());

async function checkout(productId: string) {
  const buyer = browser(harness.url);
  const buyerEmail = `buyer-${randomUUID()}@example.com`;
  const response = await buyer.postJson('/api/checkout', { productId, buyerEmail });
  expect(response.status).toBe(200);
  const { txRef } = (await response.json()) as { txRef: string };
  return { buyer, txRef, buyerEmail };
}

const eventsOf = (type: string, txRef: string) =>
  harness.published.filter((event) => event.type === type && event.data.txRef === txRef);

/**
 * A webhook signed with the sandbox's secret, saying whatever the test says: the v3 envelope, or
 * the legacy flat shape Flutterwave also sends (payments-contract §2; another event key).
 */
function postSignedWebhook(data: Record<string, unknown>, shape: 'envelope' | 'flat' = 'envelope') {
  const raw = JSON.stringify(shape === 'flat' ? data : { event: 'charge.completed', data });
  return fetchJson(`${harness.url}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'verif-hash': WEBHOOK_SECRET,
      'flutterwave-signature': createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('base64'),
    },
    body: raw,
  });
}

async function sandboxPayment(txRef: string) {
  const { rows } = await harness.pool.query<{ transaction_id: string; status: string }>(
    'SELECT transaction_id::text, status FROM sandbox_payments WHERE tx_ref = $1',
    [txRef],
  );
  return rows[0]!;
}

/** Waits until every stored webhook of this transaction was settled (whatever the outcome). */
async function settledWebhooks(transactionId: string, count: number) {
  await waitFor(async () => {
    const { rows } = await harness.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM provider_events
       WHERE split_part(event_key, ':', 2) = $1 AND status = 'processed'`,
      [transactionId],
    );
    return rows[0]!.n >= count;
  });
}

/**
 * Resolves once every event payments published before now has reached the test's observer: a
 * card sale made now is published after them, on the same ordered subject family (purchase.*).
 */
async function everythingPublishedSoFar() {
  const product = await harness.publishProduct();
  const { buyer, txRef } = await checkout(product.productId);
  await buyer.submitForm(`/sandbox/checkout/${txRef}/pay`);
  await waitFor(() => eventsOf('purchase.paid', txRef).length === 1);
}

describe('payments the provider reports pending (issue 27, sale.pending)', () => {
  it('a bank transfer is announced pending once, then paid under the same sale id', async () => {
    const product = await harness.publishProduct();
    const { buyer, txRef, buyerEmail } = await checkout(product.productId);

    const chosen = await buyer.submitForm(`/sandbox/checkout/${txRef}/transfer`);
    expect(chosen.status).toBe(303);
    await waitFor(() => eventsOf('purchase.pending', txRef).length === 1);
    const [pending] = eventsOf('purchase.pending', txRef);
    expect(pending!.data).toMatchObject({
      productId: product.productId,
      sellerId: product.ownerId,
      buyerEmail,
      productTitle: product.title,
      amountMinor: 500_000,
      currency: 'NGN',
      testMode: true,
    });
    expect((await sandboxPayment(txRef)).status).toBe('pending');

    // The same pending charge reported again — the webhook redelivered with a new body, the
    // success page verifying on read, the reconciler's poll — is not announced again.
    const { transaction_id: transactionId } = await sandboxPayment(txRef);
    await postSignedWebhook(
      { id: Number(transactionId), txRef, status: 'pending', amount: 5000, currency: 'NGN' },
      'flat',
    );
    const read = await buyer.request(`/api/purchases/by-reference?tx_ref=${txRef}`);
    expect((await read.json()).status).toBe('pending');
    await settledWebhooks(transactionId, 2);
    expect(await purchaseCount(txRef)).toBe(0);
    await everythingPublishedSoFar();
    expect(eventsOf('purchase.pending', txRef)).toHaveLength(1);

    // The transfer arrives: the sale has the id the pending announcement gave it.
    await buyer.submitForm(`/sandbox/checkout/${txRef}/pay`);
    await waitFor(() => eventsOf('purchase.paid', txRef).length === 1);
    const [paid] = eventsOf('purchase.paid', txRef);
    expect(paid!.data.purchaseId).toBe(pending!.data.purchaseId);
    expect(eventsOf('purchase.pending', txRef)).toHaveLength(1);
    const { rows } = await harness.pool.query(
      'SELECT id, status FROM purchases WHERE tx_ref = $1',
      [txRef],
    );
    expect(rows).toEqual([{ id: pending!.data.purchaseId, status: 'paid' }]);
  });

  it('a pending transfer that fails is announced failed once, under the same sale id', async () => {
    const product = await harness.publishProduct();
    const { buyer, txRef } = await checkout(product.productId);
    await buyer.submitForm(`/sandbox/checkout/${txRef}/transfer`);
    await waitFor(() => eventsOf('purchase.pending', txRef).length === 1);

    await buyer.submitForm(`/sandbox/checkout/${txRef}/fail`);
    await waitFor(() => eventsOf('purchase.failed', txRef).length === 1);
    const [failed] = eventsOf('purchase.failed', txRef);
    expect(failed!.data.purchaseId).toBe(eventsOf('purchase.pending', txRef)[0]!.data.purchaseId);
    expect(failed!.data.testMode).toBe(true);

    // Asked again (the success page), the failure is not news twice.
    await buyer.request(`/api/purchases/by-reference?tx_ref=${txRef}`);
    const { transaction_id: transactionId } = await sandboxPayment(txRef);
    await settledWebhooks(transactionId, 2);
    await everythingPublishedSoFar();
    expect(eventsOf('purchase.failed', txRef)).toHaveLength(1);
    expect(await purchaseCount(txRef)).toBe(0);
  });

  it("a webhook's word alone announces nothing: only what the provider's verify API reports", async () => {
    const product = await harness.publishProduct();

    // A signed webhook says pending for a transaction the provider has no record of.
    const { txRef: unknownRef } = await checkout(product.productId);
    const forgedId = 9_000_000 + Math.floor(Math.random() * 1_000_000);
    const forged = await postSignedWebhook({
      id: forgedId,
      tx_ref: unknownRef,
      status: 'pending',
      amount: 5000,
      currency: 'NGN',
    });
    expect((await forged.json()).outcome).toBe('accepted');
    await settledWebhooks(String(forgedId), 1);

    // A card payment the provider verified as paid, which a webhook calls pending.
    const paidCheckout = await checkout(product.productId);
    await paidCheckout.buyer.submitForm(`/sandbox/checkout/${paidCheckout.txRef}/pay`);
    await waitFor(() => eventsOf('purchase.paid', paidCheckout.txRef).length === 1);
    const paid = await sandboxPayment(paidCheckout.txRef);
    await postSignedWebhook({
      id: Number(paid.transaction_id),
      tx_ref: paidCheckout.txRef,
      status: 'pending',
      amount: 5000,
      currency: 'NGN',
    });
    await settledWebhooks(paid.transaction_id, 2);

    // A card declined at once was never announced pending: its failure is nobody's news either.
    const declined = await checkout(product.productId);
    await declined.buyer.submitForm(`/sandbox/checkout/${declined.txRef}/fail`);
    await settledWebhooks((await sandboxPayment(declined.txRef)).transaction_id, 1);

    await everythingPublishedSoFar();
    for (const txRef of [unknownRef, paidCheckout.txRef, declined.txRef]) {
      expect(eventsOf('purchase.pending', txRef)).toEqual([]);
      expect(eventsOf('purchase.failed', txRef)).toEqual([]);
    }
  });
});

async function purchaseCount(txRef: string): Promise<number> {
  const { rows } = await harness.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM purchases WHERE tx_ref = $1',
    [txRef],
  );
  return rows[0]!.n;
}

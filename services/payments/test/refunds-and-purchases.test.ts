import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchJson, ledgerOf, sell, startHarness, waitFor, type Harness } from './support.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ SUPPORT_EMAILS: 'support@lockdrop.test' });
});
afterAll(() => harness?.close());
beforeEach(() => {
  harness.clock.offsetMs = 0;
  harness.accessHolds.answering = true;
});

/** A paid purchase through the sandbox, as a buyer would make it. */
const buy = (productOverrides = {}, buyerEmail?: string) =>
  sell(harness, productOverrides, buyerEmail);

const auth = async (user: Parameters<Harness['token']>[0]) => ({
  authorization: `Bearer ${await harness.token(user)}`,
});
const get = async (path: string, headers: Record<string, string> = {}) =>
  fetchJson(`${harness.url}${path}`, { headers });
const refund = async (purchaseId: string, headers: Record<string, string>) =>
  fetchJson(`${harness.url}/api/purchases/${purchaseId}/refund`, { method: 'POST', headers });

describe('refunds', () => {
  it('reverse the journal, emit purchase.refunded and drop the purchase from the buyer list', async () => {
    const { product, purchaseId, buyerEmail } = await buy();
    const buyerHeaders = await auth({ id: randomUUID(), email: buyerEmail });
    expect(
      (await (await get('/api/purchases', buyerHeaders)).json()).purchases.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([purchaseId]);

    const response = await refund(
      purchaseId,
      await auth({ id: product.ownerId, email: 'seller@example.com' }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).purchase).toMatchObject({
      id: purchaseId,
      status: 'refunded',
      amountMinor: 500_000,
    });

    const entries = await ledgerOf(harness.pool, purchaseId);
    const payment = entries.filter((e) => e.kind === 'payment');
    const reversal = entries.filter((e) => e.kind === 'refund');
    const paid = (account: string) => payment.find((e) => e.account === account)!.amount_minor;
    // The buyer gets all back, the platform fee is returned, the provider keeps its fee and the
    // seller bears it: the ledger follows the cash.
    expect(reversal.map((e) => [e.account, e.amount_minor])).toEqual([
      ['buyer_payments', -paid('buyer_payments')],
      ['seller_earnings', -paid('seller_earnings') - paid('processor_fees')],
      ['platform_fees', -paid('platform_fees')],
    ]);
    expect(payment.reduce((s, e) => s + e.amount_minor, 0)).toBe(0);
    expect(reversal.reduce((s, e) => s + e.amount_minor, 0)).toBe(0);

    await waitFor(async () =>
      harness.published.some(
        (e) => e.type === 'purchase.refunded' && e.data.purchaseId === purchaseId,
      ),
    );
    const event = harness.published.find(
      (e) => e.type === 'purchase.refunded' && e.data.purchaseId === purchaseId,
    )!;
    expect(event.data).toMatchObject({
      productId: product.productId,
      sellerId: product.ownerId,
      buyerEmail,
      amountMinor: 500_000,
      reason: 'refund',
      currency: 'NGN',
      fileId: product.fileId,
    });

    expect((await (await get('/api/purchases', buyerHeaders)).json()).purchases).toEqual([]);
    const { rows } = await harness.pool.query(
      'SELECT refunded_minor FROM sandbox_payments p JOIN purchases u ON u.tx_ref = p.tx_ref WHERE u.id = $1',
      [purchaseId],
    );
    expect(rows[0].refunded_minor).toBe(500_000);

    const again = await refund(
      purchaseId,
      await auth({ id: product.ownerId, email: 'seller@example.com' }),
    );
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('already_refunded');
  });

  it('are for the seller or support only, within 24 hours of payment', async () => {
    const { product, purchaseId, buyerEmail } = await buy();
    for (const user of [
      { id: randomUUID(), email: buyerEmail },
      { id: randomUUID(), email: 'someone@example.com' },
      { id: randomUUID(), email: 'support@lockdrop.test', emailVerified: false },
    ]) {
      const response = await refund(purchaseId, await auth(user));
      expect(response.status).toBe(404);
    }
    expect((await refund(purchaseId, {})).status).toBe(401);

    harness.clock.offsetMs = 24 * 3_600_000 + 60_000;
    const late = await refund(
      purchaseId,
      await auth({ id: product.ownerId, email: 'seller@example.com' }),
    );
    expect(late.status).toBe(409);
    expect((await late.json()).error.code).toBe('refund_window_closed');

    harness.clock.offsetMs = 23 * 3_600_000;
    const bySupport = await refund(
      purchaseId,
      await auth({ id: randomUUID(), email: 'Support@Lockdrop.test' }),
    );
    expect(bySupport.status).toBe(200);
  });

  it('has delivery stop the downloads before the provider is asked for the money', async () => {
    const { product, purchaseId, txRef, buyerEmail } = await buy();
    const response = await refund(
      purchaseId,
      await auth({ id: product.ownerId, email: 'seller@example.com' }),
    );
    expect(response.status).toBe(200);
    const hold = harness.accessHolds.requests.find((h) => h.purchaseId === purchaseId);
    expect(hold).toMatchObject({
      purchaseId,
      productId: product.productId,
      sellerId: product.ownerId,
      buyerEmail,
      refundId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const { rows } = await harness.pool.query(
      'SELECT refunded_minor FROM sandbox_payments WHERE tx_ref = $1',
      [txRef],
    );
    expect(rows[0].refunded_minor).toBe(500_000);
  });

  it('refunds nothing when delivery cannot stop the downloads, and gives the buyer the file back', async () => {
    const { product, purchaseId } = await buy();
    harness.accessHolds.answering = false;
    const response = await refund(
      purchaseId,
      await auth({ id: product.ownerId, email: 'seller@example.com' }),
    );
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe('refund_unavailable');
    const { rows } = await harness.pool.query(
      `SELECT u.status, p.refunded_minor FROM purchases u JOIN sandbox_payments p ON p.tx_ref = u.tx_ref
       WHERE u.id = $1`,
      [purchaseId],
    );
    expect(rows[0]).toMatchObject({ status: 'paid', refunded_minor: 0 });
    expect(
      (await ledgerOf(harness.pool, purchaseId)).filter((e) => e.kind === 'refund'),
    ).toHaveLength(0);
    await waitFor(async () =>
      harness.published.some(
        (e) => e.type === 'purchase.refund_failed' && e.data.purchaseId === purchaseId,
      ),
    );
    // Delivery back: the seller can try again, and this time it goes through.
    harness.accessHolds.answering = true;
    const retry = await refund(
      purchaseId,
      await auth({ id: product.ownerId, email: 'seller@example.com' }),
    );
    expect(retry.status).toBe(200);
  });

  it('cannot run twice at once', async () => {
    const { product, purchaseId } = await buy();
    const headers = await auth({ id: product.ownerId, email: 'seller@example.com' });
    const statuses = (
      await Promise.all(Array.from({ length: 5 }, () => refund(purchaseId, headers)))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(
      (await ledgerOf(harness.pool, purchaseId)).filter((e) => e.kind === 'refund'),
    ).toHaveLength(3);
  });
});

describe('GET /api/purchases', () => {
  it('lists paid purchases of the verified e-mail, newest first, case-insensitively', async () => {
    const email = `Ada-${randomUUID()}@Example.com`;
    const first = await buy({ title: 'First pack', fileName: 'first.zip' }, email);
    const second = await buy(
      { title: 'Second pack', fileName: 'second.pdf', priceMinor: 1_999, currency: 'USD' },
      email.toLowerCase(),
    );
    const response = await get(
      '/api/purchases',
      await auth({ id: randomUUID(), email: email.toUpperCase() }),
    );
    expect(response.status).toBe(200);
    const { purchases } = await response.json();
    expect(purchases.map((p: { id: string }) => p.id)).toEqual([
      second.purchaseId,
      first.purchaseId,
    ]);
    expect(purchases[0]).toEqual({
      id: second.purchaseId,
      productId: second.product.productId,
      productTitle: 'Second pack',
      fileName: 'second.pdf',
      amountMinor: 1_999,
      currency: 'USD',
      status: 'paid',
      paymentReference: second.txRef,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      testMode: true,
      subscriptionId: null,
      renewal: false,
      discount: null,
    });
  });

  it('refuses an unverified e-mail and shows nobody else my purchases', async () => {
    const { buyerEmail, txRef } = await buy();
    const unverified = await get(
      '/api/purchases',
      await auth({ id: randomUUID(), email: buyerEmail, emailVerified: false }),
    );
    expect(unverified.status).toBe(403);
    expect((await unverified.json()).error.code).toBe('email_not_verified');
    const other = await get(
      '/api/purchases',
      await auth({ id: randomUUID(), email: 'other@example.com' }),
    );
    expect((await other.json()).purchases).toEqual([]);
    expect((await get('/api/purchases')).status).toBe(401);

    // The success page: the verified buyer may look it up without the checkout's cookie; others may not.
    const byBuyer = await get(
      `/api/purchases/by-reference?tx_ref=${txRef}`,
      await auth({ id: randomUUID(), email: buyerEmail }),
    );
    expect((await byBuyer.json()).status).toBe('paid');
    for (const user of [
      { id: randomUUID(), email: buyerEmail, emailVerified: false },
      { id: randomUUID(), email: 'other@example.com' },
    ]) {
      expect(
        (await get(`/api/purchases/by-reference?tx_ref=${txRef}`, await auth(user))).status,
      ).toBe(404);
    }
  });

  it("lists a seller's own sales with the fee split, and nobody else's", async () => {
    const { product, purchaseId } = await buy();
    const sales = await (
      await get('/api/purchases/sales', await auth({ id: product.ownerId, email: 's@example.com' }))
    ).json();
    expect(sales.sales).toHaveLength(1);
    expect(sales.sales[0]).toMatchObject({
      id: purchaseId,
      feePlatformMinor: 25_000,
      feeProcessorMinor: 17_500,
      sellerEarningsMinor: 457_500,
    });
    const stranger = await (
      await get('/api/purchases/sales', await auth({ id: randomUUID(), email: 's2@example.com' }))
    ).json();
    expect(stranger.sales).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, ledgerOf, startHarness, waitFor, type Harness } from './support.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ CHECKOUT_EMAIL_LIMIT: '3', PUBLIC_URL: 'http://shop.test' });
});
afterAll(() => harness?.close());

/** The buyer's journey up to the sandbox page; returns the browser and the checkout's tx_ref. */
async function checkout(
  productId: string,
  buyerEmail = `buyer-${randomUUID()}@example.com`,
  currency?: string,
) {
  const buyer = browser(harness.url);
  const response = await buyer.postJson('/api/checkout', {
    productId,
    buyerEmail,
    ...(currency ? { currency } : {}),
  });
  expect(response.status).toBe(200);
  const { link, txRef } = (await response.json()) as { link: string; txRef: string };
  return { buyer, link, txRef, buyerEmail };
}

describe('the money path with the sandbox provider', () => {
  it('tells buying screens that this deployment takes test payments', async () => {
    const response = await browser(harness.url).request('/api/purchases/payment-mode');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ testMode: true, processorFeeBps: 350 });
  });

  it('tells the pricing pages the processing fee checkout counts, as configured', async () => {
    const configured = await startHarness({ PROCESSOR_FEE_BPS: '290' });
    try {
      const response = await browser(configured.url).request('/api/purchases/payment-mode');
      expect(await response.json()).toEqual({ testMode: true, processorFeeBps: 290 });
    } finally {
      await configured.close();
    }
  });

  it('checkout → sandbox page → Pay → signed webhook → paid purchase, event, balanced ledger, receipt', async () => {
    const product = await harness.publishProduct();
    const { buyer, link, txRef, buyerEmail } = await checkout(product.productId);
    expect(link).toBe(`http://shop.test/sandbox/checkout/${txRef}`);
    expect(buyer.cookies.get('ld_buyer')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const page = await buyer.request(new URL(link).pathname);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(product.title);
    expect(html).toContain('₦5,000');
    expect(html).toContain(buyerEmail);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`action="/sandbox/checkout/${txRef}/pay"`);

    const paid = await buyer.submitForm(`/sandbox/checkout/${txRef}/pay`);
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('http://shop.test/payment/success');
    expect(back.searchParams.get('status')).toBe('successful');
    expect(back.searchParams.get('tx_ref')).toBe(txRef);
    expect(back.searchParams.get('transaction_id')).toMatch(/^\d+$/);

    // The webhook travels over HTTP to /api/webhooks/sandbox on its own; wait for its effect.
    await waitFor(async () => {
      const { rows } = await harness.pool.query(
        `SELECT outcome FROM provider_events WHERE tx_ref = $1`,
        [txRef],
      );
      return rows[0]?.outcome === 'paid';
    });
    const result = await buyer.request(`/api/purchases/by-reference?tx_ref=${txRef}`);
    expect(result.status).toBe(200);
    const body = await result.json();
    expect(body).toMatchObject({
      status: 'paid',
      txRef,
      purchase: {
        productId: product.productId,
        productTitle: product.title,
        fileName: 'lagos-pack.zip',
        amountMinor: 500_000,
        currency: 'NGN',
        status: 'paid',
        paymentReference: txRef,
        testMode: true,
      },
    });

    const purchaseId = body.purchase.id as string;
    await waitFor(async () =>
      harness.published.some(
        (event) => event.type === 'purchase.paid' && event.data.purchaseId === purchaseId,
      ),
    );
    const event = harness.published.find(
      (e) => e.type === 'purchase.paid' && e.data.purchaseId === purchaseId,
    )!;
    expect(event.data).toMatchObject({
      productId: product.productId,
      sellerId: product.ownerId,
      buyerEmail,
      txRef,
      amountMinor: 500_000,
      currency: 'NGN',
      feePlatformMinor: 25_000,
      feeProcessorMinor: 17_500,
      sellerEarningsMinor: 457_500,
      fileId: product.fileId,
      fileName: 'lagos-pack.zip',
      provider: 'sandbox',
      // No real money moved: analytics keeps it out of the seller's revenue (issue 29).
      testMode: true,
    });
    expect((event.data as { receiptTokenHash: string }).receiptTokenHash).toMatch(/^[a-f0-9]{64}$/);
    expect(
      harness.published.some((e) => e.type === 'checkout.started' && e.data.txRef === txRef),
    ).toBe(true);

    const entries = await ledgerOf(harness.pool, purchaseId);
    expect(entries.map((e) => [e.account, e.amount_minor])).toEqual([
      ['buyer_payments', 500_000],
      ['seller_earnings', -457_500],
      ['platform_fees', -25_000],
      ['processor_fees', -17_500],
    ]);
    expect(entries.reduce((sum, e) => sum + e.amount_minor, 0)).toBe(0);

    // The receipt e-mail carries a link whose token hashes to the one in the event.
    await waitFor(async () => {
      const { rows } = await harness.pool.query(
        `SELECT 1 FROM mailbox.messages WHERE recipient = $1`,
        [buyerEmail],
      );
      return rows.length === 1;
    });
    const { rows: mails } = await harness.pool.query(
      `SELECT subject, text_body FROM mailbox.messages WHERE recipient = $1`,
      [buyerEmail],
    );
    // A sandbox payment moved no money: the receipt must not read like a real one.
    expect(mails[0].subject).toBe(`[TEST] Your receipt for ${product.title}`);
    expect(mails[0].text_body).toContain('This was a test payment: no money was charged');
    const token = /http:\/\/shop\.test\/receipt\/([A-Za-z0-9_-]+)/.exec(mails[0].text_body)?.[1];
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(token!).digest('hex')).toBe(
      (event.data as { receiptTokenHash: string }).receiptTokenHash,
    );

    // A second press of Pay (back button) lands on the same result and charges nothing more.
    const again = await buyer.submitForm(`/sandbox/checkout/${txRef}/pay`);
    expect(new URL(again.headers.get('location')!).searchParams.get('transaction_id')).toBe(
      back.searchParams.get('transaction_id'),
    );
    const { rows: count } = await harness.pool.query(
      'SELECT count(*)::int AS n FROM purchases WHERE tx_ref = $1',
      [txRef],
    );
    expect(count[0].n).toBe(1);
  });

  it('Cancel returns to /payment/cancel and Fail reports a failed payment; neither pays', async () => {
    const product = await harness.publishProduct();
    const cancelled = await checkout(product.productId);
    const cancel = await cancelled.buyer.submitForm(`/sandbox/checkout/${cancelled.txRef}/cancel`);
    const cancelUrl = new URL(cancel.headers.get('location')!);
    expect(cancelUrl.pathname).toBe('/payment/cancel');
    expect(cancelUrl.searchParams.get('status')).toBe('cancelled');
    expect(cancelUrl.searchParams.has('transaction_id')).toBe(false);

    const failing = await checkout(product.productId);
    const fail = await failing.buyer.submitForm(`/sandbox/checkout/${failing.txRef}/fail`);
    expect(new URL(fail.headers.get('location')!).searchParams.get('status')).toBe('failed');
    await waitFor(async () => {
      const response = await failing.buyer.request(
        `/api/purchases/by-reference?tx_ref=${failing.txRef}`,
      );
      return (await response.json()).status === 'failed';
    });
    const { rows } = await harness.pool.query(
      'SELECT count(*)::int AS n FROM purchases WHERE product_id = $1',
      [product.productId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('the payment result is only for the buyer: another browser learns nothing from the tx_ref', async () => {
    const product = await harness.publishProduct();
    const { txRef } = await checkout(product.productId);
    const stranger = browser(harness.url);
    const response = await stranger.request(`/api/purchases/by-reference?txRef=${txRef}`);
    expect(response.status).toBe(404);
    expect((await response.json()).error).toEqual({
      code: 'purchase_not_found',
      message: 'Purchase not found or payment not confirmed',
    });
  });
});

describe('checkout rules', () => {
  it("answers a missing or malformed e-mail with 'Please enter your email'", async () => {
    const product = await harness.publishProduct();
    for (const body of [
      { productId: product.productId },
      { productId: product.productId, buyerEmail: '  ' },
      { productId: product.productId, buyerEmail: 'not-an-email' },
    ]) {
      const response = await browser(harness.url).postJson('/api/checkout', body);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({
        code: 'email_required',
        message: 'Please enter your email',
      });
    }
  });

  it('sells only published products that exist', async () => {
    const draft = await harness.publishProduct({ status: 'draft' });
    const response = await browser(harness.url).postJson('/api/checkout', {
      productId: draft.productId,
      buyerEmail: 'a@example.com',
    });
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('product_not_published');
    for (const productId of [randomUUID(), 'nope']) {
      const missing = await browser(harness.url).postJson('/api/checkout', {
        productId,
        buyerEmail: 'a@example.com',
      });
      expect(missing.status).toBe(404);
      expect((await missing.json()).error).toEqual({
        code: 'product_not_found',
        message: 'Product not found',
      });
    }
  });

  it('snapshots the seller plan fee and converts to the buyer currency at the published rate', async () => {
    const product = await harness.publishProduct({ priceMinor: 1_999, currency: 'USD' });
    await harness.publish(
      createEvent(
        'profile.updated',
        {
          userId: product.ownerId,
          email: 'seller@example.com',
          emailVerified: true,
          fullName: 'Ada',
          avatarUrl: null,
          plan: 'pro',
        },
        { correlationId: 'x' },
      ),
    );
    await harness.publish(
      createEvent(
        'fx.rates.updated',
        { source: 'test', rates: [{ from: 'USD', to: 'NGN', rate: '1500.5' }] },
        { correlationId: 'x' },
      ),
    );
    await waitFor(
      async () =>
        (
          await harness.pool.query(`SELECT 1 FROM sellers WHERE plan = 'pro' AND user_id = $1`, [
            product.ownerId,
          ])
        ).rows.length === 1,
    );
    await waitFor(
      async () =>
        (await harness.pool.query(`SELECT 1 FROM exchange_rates WHERE to_currency = 'NGN'`)).rows
          .length === 1,
    );

    const { txRef } = await checkout(product.productId, undefined, 'ngn');
    const { rows } = await harness.pool.query('SELECT * FROM checkouts WHERE tx_ref = $1', [txRef]);
    // 19.99 USD × 1500.5 = 29,994.995 NGN → 2,999,500 kobo (half up); pro plan 2.5% → 74,988 (74,987.5 half up).
    expect(rows[0]).toMatchObject({
      amount_minor: 2_999_500,
      currency: 'NGN',
      price_minor: 1_999,
      price_currency: 'USD',
      fx_rate: '15005/10',
      plan: 'pro',
      platform_fee_bps: 250,
      platform_fee_minor: 74_988,
    });

    const unknown = await browser(harness.url).postJson('/api/checkout', {
      productId: product.productId,
      buyerEmail: 'b@example.com',
      currency: 'JPY',
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.code).toBe('currency_not_supported');
  });

  it('throttles checkouts per buyer e-mail, whatever the IP', async () => {
    const product = await harness.publishProduct();
    const email = `Busy-${randomUUID()}@Example.com`;
    const statuses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        browser(harness.url)
          .postJson('/api/checkout', {
            productId: product.productId,
            buyerEmail: i % 2 ? email : email.toLowerCase(),
          })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });
});

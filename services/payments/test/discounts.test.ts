import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFlutterwave, type FakeFlutterwave } from './fake-flutterwave.js';
import {
  browser,
  buy,
  ledgerOf,
  mailTo,
  startHarness,
  waitFor,
  type Harness,
  type JsonResponse,
  type TestUser,
} from './support.js';

/**
 * Discount codes and pay what you want, through payments' HTTP API and the sandbox: the quote
 * the product page shows is what checkout charges, the ledger and the code's figures use the
 * paid amount, limits hold under racing checkouts, and a zero total is a purchase without a
 * provider round trip.
 */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL: 'http://shop.test', CHECKOUT_EMAIL_LIMIT: '50' });
});
afterAll(() => harness?.close());

function newSeller(): TestUser {
  const id = randomUUID();
  return { id, email: `seller-${id}@example.com`, emailVerified: true, plan: 'free' };
}

async function sellerClient(user = newSeller()) {
  const token = await harness.token(user);
  const call = (method: string, path: string, body?: unknown): Promise<JsonResponse> =>
    fetch(new URL(path, harness.url), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { user, call };
}

type Seller = Awaited<ReturnType<typeof sellerClient>>;

async function createCode(seller: Seller, body: Record<string, unknown>) {
  const response = await seller.call('POST', '/api/discount-codes', {
    kind: 'percent',
    percentOff: 20,
    ...body,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; code: string };
}

const uniqueCode = (prefix = 'LAUNCH') => `${prefix}${randomUUID().slice(0, 6)}`.toUpperCase();

async function quote(body: Record<string, unknown>) {
  const response = await browser(harness.url).postJson('/api/checkout/quote', body);
  return { status: response.status, body: await response.json() };
}

async function startCheckout(body: Record<string, unknown>, buyer = browser(harness.url)) {
  const response = await buyer.postJson('/api/checkout', {
    buyerEmail: `buyer-${randomUUID()}@example.com`,
    ...body,
  });
  return { buyer, status: response.status, body: await response.json() };
}

async function pay(buyer: ReturnType<typeof browser>, txRef: string) {
  const paid = await buyer.submitForm(`/sandbox/checkout/${txRef}/pay`);
  expect(paid.status).toBe(303);
  let purchase: { id: string; amount_minor: number; fee_platform_minor: number } | undefined;
  await waitFor(async () => {
    const { rows } = await harness.pool.query(
      `SELECT id, amount_minor, fee_platform_minor FROM purchases WHERE tx_ref = $1`,
      [txRef],
    );
    purchase = rows[0];
    return Boolean(purchase);
  });
  return purchase!;
}

async function listedCode(seller: Seller, id: string) {
  const response = await seller.call('GET', '/api/discount-codes');
  expect(response.status).toBe(200);
  const { discountCodes } = (await response.json()) as { discountCodes: Array<{ id: string }> };
  return discountCodes.find((code) => code.id === id) as Record<string, unknown> | undefined;
}

describe('a seller manages discount codes', () => {
  it('creates, lists, edits and deletes their own codes; nobody else can touch them', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const created = await createCode(seller, {
      code: 'spring-sale',
      productIds: [product.productId],
      maxUses: 10,
      maxUsesPerBuyer: 1,
      endsAt: '2099-01-01T00:00:00.000Z',
    });
    expect(created).toMatchObject({
      code: 'spring-sale',
      kind: 'percent',
      percentOff: 20,
      label: '20% off',
      productIds: [product.productId],
      maxUses: 10,
      maxUsesPerBuyer: 1,
      active: true,
      state: 'active',
      uses: 0,
      reserved: 0,
      revenue: [],
    });

    // Codes are matched without regard to case, so the same letters cannot be a second code.
    const twice = await seller.call('POST', '/api/discount-codes', {
      code: 'SPRING-SALE',
      kind: 'percent',
      percentOff: 5,
    });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error).toEqual({
      code: 'discount_code_taken',
      message: 'You already have a code called SPRING-SALE',
    });

    const edited = await seller.call('PUT', `/api/discount-codes/${created.id}`, {
      code: 'spring-sale',
      kind: 'fixed',
      amountOff: '250.50',
      currency: 'ngn',
      productIds: null,
      active: false,
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({
      kind: 'fixed',
      percentOff: null,
      amountOffMinor: 25_050,
      amountOff: '250.50',
      currency: 'NGN',
      label: '₦250.50 off',
      productIds: null,
      maxUses: null,
      state: 'inactive',
    });

    const stranger = await sellerClient();
    expect(
      (await stranger.call('GET', '/api/discount-codes').then((r) => r.json())).discountCodes,
    ).toEqual([]);
    const theirs = await stranger.call('PUT', `/api/discount-codes/${created.id}`, {
      code: 'mine-now',
      kind: 'percent',
      percentOff: 100,
    });
    expect(theirs.status).toBe(404);
    expect((await stranger.call('DELETE', `/api/discount-codes/${created.id}`)).status).toBe(404);
    expect((await fetch(new URL('/api/discount-codes', harness.url))).status).toBe(401);

    expect((await seller.call('DELETE', `/api/discount-codes/${created.id}`)).status).toBe(204);
    expect(await listedCode(seller, created.id)).toBeUndefined();
  });

  it('says in words what is wrong with a code', async () => {
    const seller = await sellerClient();
    const othersProduct = await harness.publishProduct();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ code: 'x' }, 'Codes are 3 to 32 letters, digits, dashes or underscores'],
      [{ code: 'has space' }, 'Codes are 3 to 32 letters, digits, dashes or underscores'],
      [{ percentOff: 0 }, 'The percentage must be a whole number from 1 to 100'],
      [{ percentOff: 101 }, 'The percentage must be a whole number from 1 to 100'],
      [{ kind: 'fixed', amountOff: '5' }, 'Choose the currency of the amount off'],
      [{ kind: 'fixed', currency: 'USD' }, 'Enter the amount off'],
      [
        { kind: 'fixed', currency: 'USD', amountOff: '-1' },
        'The amount off must be more than zero',
      ],
      [
        { kind: 'fixed', currency: 'USD', amountOff: 'five' },
        'The amount off must be a number, like 5 or 2.50',
      ],
      [
        { startsAt: '2030-02-01T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' },
        'The end must come after the start',
      ],
      [{ productIds: [] }, 'Choose at least one product, or let the code apply to all of them'],
      [{ productIds: [othersProduct.productId] }, 'A code can only apply to your own products'],
    ];
    for (const [change, message] of refusals) {
      const response = await seller.call('POST', '/api/discount-codes', {
        code: uniqueCode(),
        kind: 'percent',
        percentOff: 10,
        ...change,
      });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect((await response.json()).error, JSON.stringify(change)).toEqual({
        code: 'invalid_discount',
        message,
      });
    }
    expect(
      (await seller.call('GET', '/api/discount-codes').then((r) => r.json())).discountCodes,
    ).toEqual([]);
  });
});

describe('a buyer uses a code', () => {
  it('sees the discounted total, pays exactly that, and the seller sees the use and revenue', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const { id, code } = await createCode(seller, { code: uniqueCode() });

    // Any case works; the quote is the figure the product page shows.
    const shown = await quote({ productId: product.productId, discountCode: code.toLowerCase() });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      currency: 'NGN',
      listPrice: { amountMinor: 500_000, amount: '5000.00', formatted: '₦5,000' },
      discount: {
        code,
        label: '20% off',
        amountOff: { amountMinor: 100_000, amount: '1000.00', formatted: '₦1,000' },
      },
      minimum: null,
      total: { amountMinor: 400_000, amount: '4000.00', formatted: '₦4,000' },
    });

    const started = await startCheckout({
      productId: product.productId,
      discountCode: ` ${code.toLowerCase()} `,
    });
    expect(started.status).toBe(200);
    const page = await (
      await started.buyer.request(`/sandbox/checkout/${started.body.txRef}`)
    ).text();
    expect(page).toContain('₦4,000');
    const { rows: checkouts } = await harness.pool.query(
      `SELECT amount_minor, discount_code, discount_minor, discount_code_id, expires_at > now() AS holding
       FROM checkouts WHERE tx_ref = $1`,
      [started.body.txRef],
    );
    expect(checkouts[0]).toEqual({
      amount_minor: 400_000,
      discount_code: code,
      discount_minor: 100_000,
      discount_code_id: id,
      holding: true,
    });
    expect(await listedCode(seller, id)).toMatchObject({ uses: 0, reserved: 1 });

    const purchase = await pay(started.buyer, started.body.txRef);
    // The free plan's 5% platform fee is taken from what was paid, not the list price.
    expect(purchase).toMatchObject({ amount_minor: 400_000, fee_platform_minor: 20_000 });
    const ledger = await ledgerOf(harness.pool, purchase.id);
    expect(ledger.find((line) => line.account === 'buyer_payments')?.amount_minor).toBe(400_000);
    expect(ledger.reduce((sum, line) => sum + line.amount_minor, 0)).toBe(0);
    await waitFor(() =>
      harness.published.some(
        (event) =>
          event.type === 'purchase.paid' &&
          event.data.txRef === started.body.txRef &&
          event.data.amountMinor === 400_000,
      ),
    );
    // The buyer's receipt and purchase say which code took what off.
    const result = await (
      await started.buyer.request(`/api/purchases/by-reference?tx_ref=${started.body.txRef}`)
    ).json();
    expect(result.purchase).toMatchObject({
      amountMinor: 400_000,
      discount: { code, amountOffMinor: 100_000 },
    });
    const buyerEmail = (
      await harness.pool.query('SELECT buyer_email FROM purchases WHERE id = $1', [purchase.id])
    ).rows[0].buyer_email;
    await waitFor(async () => (await mailTo(harness.pool, buyerEmail)).length === 1);
    const receipt = (await mailTo(harness.pool, buyerEmail))[0]!.text_body;
    expect(receipt).toContain('Amount paid: ₦4,000');
    expect(receipt).toContain(`Discount code ${code}: ₦1,000 off`);
    expect(await listedCode(seller, id)).toMatchObject({
      uses: 1,
      reserved: 0,
      revenue: [{ currency: 'NGN', amountMinor: 400_000, formatted: '₦4,000' }],
    });
  });

  it('converts what is left after the code with the rate checkout snapshots', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({
      ownerId: seller.user.id,
      priceMinor: 1_999,
      currency: 'USD',
    });
    const { code } = await createCode(seller, { code: uniqueCode(), percentOff: 50 });
    await harness.publish(
      (await import('@lockdrop/contracts')).createEvent(
        'fx.rates.updated',
        { source: 'test', rates: [{ from: 'USD', to: 'NGN', rate: '1500' }] },
        { correlationId: 'fx' },
      ),
    );
    await waitFor(async () =>
      Boolean(
        (await harness.pool.query(`SELECT 1 FROM exchange_rates WHERE to_currency = 'NGN'`))
          .rowCount,
      ),
    );
    const shown = await quote({
      productId: product.productId,
      discountCode: code,
      currency: 'NGN',
    });
    // 19.99 − 10.00 (half of 1,999 cents, rounded half up) = 9.99 USD → NGN 14,985.00.
    expect(shown.body.listPrice.amountMinor).toBe(2_998_500);
    expect(shown.body.total.amountMinor).toBe(1_498_500);
    expect(shown.body.discount.amountOff.amountMinor).toBe(1_500_000);
    const started = await startCheckout({
      productId: product.productId,
      discountCode: code,
      currency: 'NGN',
    });
    const { rows } = await harness.pool.query(
      'SELECT amount_minor, currency, fx_rate FROM checkouts WHERE tx_ref = $1',
      [started.body.txRef],
    );
    expect(rows[0]).toEqual({ amount_minor: 1_498_500, currency: 'NGN', fx_rate: '1500/1' });
  });

  it('says why a code cannot be used, and charges the list price without one', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const other = await harness.publishProduct({ ownerId: seller.user.id });
    const subscription = await harness.publishProduct({
      ownerId: seller.user.id,
      pricing: { type: 'recurring', interval: 'monthly' },
    });
    const inactive = await createCode(seller, { code: uniqueCode(), active: false });
    const later = await createCode(seller, {
      code: uniqueCode(),
      startsAt: '2099-03-01T09:00:00Z',
    });
    const past = await createCode(seller, {
      code: uniqueCode(),
      endsAt: '2021-03-01T09:00:00Z',
    });
    const elsewhere = await createCode(seller, {
      code: uniqueCode(),
      productIds: [other.productId],
    });
    const dollars = await createCode(seller, {
      code: uniqueCode(),
      kind: 'fixed',
      amountOff: '5',
      currency: 'USD',
    });
    const everywhere = await createCode(seller, { code: uniqueCode() });
    const someoneElses = await createCode(await sellerClient(), { code: uniqueCode() });

    const cases: Array<[string, string, string, string]> = [
      [
        product.productId,
        'NOPE-NOT-A-CODE',
        'discount_unknown',
        "We don't recognise the discount code NOPE-NOT-A-CODE",
      ],
      // Another seller's code is no code of this seller's.
      [
        product.productId,
        someoneElses.code,
        'discount_unknown',
        `We don't recognise the discount code ${someoneElses.code}`,
      ],
      [
        product.productId,
        inactive.code,
        'discount_inactive',
        'This discount code is no longer active',
      ],
      [
        product.productId,
        later.code,
        'discount_not_started',
        'This discount code can be used from 1 Mar 2099, 09:00 UTC',
      ],
      [
        product.productId,
        past.code,
        'discount_expired',
        'This discount code expired on 1 Mar 2021, 09:00 UTC',
      ],
      [
        product.productId,
        elsewhere.code,
        'discount_not_applicable',
        'This discount code does not apply to this product',
      ],
      [
        product.productId,
        dollars.code,
        'discount_not_applicable',
        'This discount code is for products priced in USD',
      ],
      [
        subscription.productId,
        everywhere.code,
        'discount_not_applicable',
        'Discount codes apply to one-time purchases, not subscriptions',
      ],
    ];
    for (const [productId, code, errorCode, message] of cases) {
      const shown = await quote({ productId, discountCode: code });
      expect(shown.status, code).toBe(400);
      expect(shown.body.error, code).toEqual({ code: errorCode, message });
      const started = await startCheckout({ productId, discountCode: code });
      expect(started.status, code).toBe(400);
      expect(started.body.error.code, code).toBe(errorCode);
    }

    const full = await quote({ productId: product.productId });
    expect(full.body).toMatchObject({ discount: null, total: { amountMinor: 500_000 } });
  });

  it('never lets racing checkouts use a limited code past its limit', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const { id, code } = await createCode(seller, { code: uniqueCode(), maxUses: 3 });

    const attempts = await Promise.all(
      Array.from({ length: 12 }, () =>
        startCheckout({ productId: product.productId, discountCode: code }),
      ),
    );
    const accepted = attempts.filter((attempt) => attempt.status === 200);
    const refused = attempts.filter((attempt) => attempt.status !== 200);
    expect(accepted).toHaveLength(3);
    expect(refused.map((attempt) => attempt.body.error)).toEqual(
      Array(9).fill({ code: 'discount_exhausted', message: 'This discount code has been used up' }),
    );
    expect(await listedCode(seller, id)).toMatchObject({
      state: 'exhausted',
      uses: 0,
      reserved: 3,
    });

    // Paying them turns the reservations into uses; the code stays used up.
    for (const attempt of accepted) await pay(attempt.buyer, attempt.body.txRef);
    expect(await listedCode(seller, id)).toMatchObject({
      state: 'exhausted',
      uses: 3,
      reserved: 0,
    });
  });

  it('gives an abandoned checkout’s use back when its payment page expires', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const { code } = await createCode(seller, { code: uniqueCode(), maxUses: 1 });
    const first = await startCheckout({ productId: product.productId, discountCode: code });
    expect(first.status).toBe(200);
    expect((await startCheckout({ productId: product.productId, discountCode: code })).status).toBe(
      400,
    );

    // The sandbox, like Flutterwave's session_duration, no longer takes payment on that page.
    await harness.pool.query(
      `UPDATE sandbox_payments SET expires_at = now() - interval '1 second' WHERE tx_ref = $1`,
      [first.body.txRef],
    );
    const late = await first.buyer.submitForm(`/sandbox/checkout/${first.body.txRef}/pay`);
    expect(new URL(late.headers.get('location')!).pathname).toBe('/payment/cancel');

    harness.clock.offsetMs = 31 * 60_000;
    try {
      const second = await startCheckout({ productId: product.productId, discountCode: code });
      expect(second.status).toBe(200);
    } finally {
      harness.clock.offsetMs = 0;
    }
  });

  it('holds a per-buyer limit, and hands a buyer who starts again their open checkout', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const { code } = await createCode(seller, { code: uniqueCode(), maxUsesPerBuyer: 1 });
    const buyerEmail = `once-${randomUUID()}@example.com`;

    const first = await startCheckout({
      productId: product.productId,
      discountCode: code,
      buyerEmail,
    });
    const again = await startCheckout({
      productId: product.productId,
      discountCode: code,
      buyerEmail,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    await pay(first.buyer, first.body.txRef);
    const after = await startCheckout({
      productId: product.productId,
      discountCode: code,
      buyerEmail: buyerEmail.toUpperCase(),
    });
    expect(after.status).toBe(400);
    expect(after.body.error).toEqual({
      code: 'discount_used_by_buyer',
      message: 'You have already used this discount code',
    });
    // The quote tells nobody whether an address has used a code: it is not a way to test e-mails.
    const shown = await quote({ productId: product.productId, discountCode: code, buyerEmail });
    expect(shown.status).toBe(200);
    expect(shown.body.discount.code).toBe(code);
    // Someone else still may.
    expect((await startCheckout({ productId: product.productId, discountCode: code })).status).toBe(
      200,
    );
  });

  it('gives the file away for a 100% code without the provider, through a recorded purchase', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const { id, code } = await createCode(seller, { code: uniqueCode(), percentOff: 100 });
    const buyerEmail = `free-${randomUUID()}@example.com`;
    // An address with an earlier paid purchase has proven itself: its free claim is immediate
    // (free-claims.test.ts: any other address confirms by e-mail first).
    await buy(harness, (await harness.publishProduct()).productId, buyerEmail);

    const shown = await quote({ productId: product.productId, discountCode: code });
    expect(shown.body.total).toEqual({
      amountMinor: 0,
      amount: '0.00',
      formatted: '₦0',
    });

    const started = await startCheckout({
      productId: product.productId,
      discountCode: code,
      buyerEmail,
    });
    expect(started.status).toBe(200);
    const link = new URL(started.body.link);
    expect(link.origin + link.pathname).toBe('http://shop.test/payment/success');
    expect(link.searchParams.get('tx_ref')).toBe(started.body.txRef);
    expect(
      (
        await harness.pool.query('SELECT 1 FROM sandbox_payments WHERE tx_ref = $1', [
          started.body.txRef,
        ])
      ).rowCount,
    ).toBe(0);

    const { rows } = await harness.pool.query(
      `SELECT id, amount_minor, provider, status, fee_platform_minor, seller_earnings_minor FROM purchases WHERE tx_ref = $1`,
      [started.body.txRef],
    );
    expect(rows[0]).toMatchObject({
      amount_minor: 0,
      provider: 'free',
      status: 'paid',
      fee_platform_minor: 0,
      seller_earnings_minor: 0,
    });
    // No money moved, so no journal; the entitlement comes from purchase.paid as for any sale.
    expect(await ledgerOf(harness.pool, rows[0].id)).toEqual([]);
    await waitFor(() =>
      harness.published.some(
        (event) =>
          event.type === 'purchase.paid' &&
          event.data.txRef === started.body.txRef &&
          event.data.amountMinor === 0 &&
          event.data.provider === 'free' &&
          event.data.buyerBrowserKeyHash !== null,
      ),
    );
    // The browser that claimed it sees its purchase on the success page, as after a payment.
    const result = await started.buyer.request(
      `/api/purchases/by-reference?tx_ref=${started.body.txRef}`,
    );
    expect(result.status).toBe(200);
    await waitFor(async () => (await mailTo(harness.pool, buyerEmail)).length === 2);
    const receipt = (await mailTo(harness.pool, buyerEmail))[1]!.text_body;
    expect(receipt).toContain('/receipt/');
    expect(receipt).toContain('Amount paid: nothing, this one is free.');
    expect(await listedCode(seller, id)).toMatchObject({ uses: 1, revenue: [{ amountMinor: 0 }] });

    const refund = await seller.call('POST', `/api/purchases/${rows[0].id}/refund`);
    expect(refund.status).toBe(409);
    expect((await refund.json()).error).toEqual({
      code: 'nothing_to_refund',
      message: 'This purchase was free; there is nothing to refund',
    });
  });
});

describe('a 100% code claimed by an address that has not proven itself', () => {
  it('holds one of the code’s uses while the confirmation link works, and uses it when confirmed', async () => {
    const seller = await sellerClient();
    const product = await harness.publishProduct({ ownerId: seller.user.id });
    const { id, code } = await createCode(seller, {
      code: uniqueCode(),
      percentOff: 100,
      maxUses: 1,
    });
    const buyerEmail = `pending-${randomUUID()}@example.com`;
    const started = await startCheckout({
      productId: product.productId,
      discountCode: code,
      buyerEmail,
    });
    expect(started.body).toMatchObject({ link: null, confirmEmail: true });
    expect(await listedCode(seller, id)).toMatchObject({ uses: 0, reserved: 1 });
    // The one use is held: nobody else gets the code meanwhile.
    const other = await startCheckout({ productId: product.productId, discountCode: code });
    expect(other.body.error.code).toBe('discount_exhausted');

    const { rows } = await harness.pool.query(
      `SELECT message->>'text' AS text FROM mail_outbox WHERE message->>'to' = $1
       UNION SELECT text_body FROM mailbox.messages WHERE recipient = $1`,
      [buyerEmail],
    );
    const link = /\/api\/checkout\/claims\/confirm\?token=[A-Za-z0-9_-]+/.exec(rows[0].text)![0];
    expect((await fetch(new URL(link, harness.url), { redirect: 'manual' })).status).toBe(303);
    expect(await listedCode(seller, id)).toMatchObject({ uses: 1, reserved: 0 });
  });
});

describe('pay what you want', () => {
  it('takes any amount from the minimum up, in the buyer’s currency, and fees follow what was paid', async () => {
    const product = await harness.publishProduct({ priceMinor: 500, minimumPriceMinor: 200 });
    const suggested = await quote({ productId: product.productId });
    expect(suggested.body).toMatchObject({
      listPrice: { amountMinor: 500 },
      minimum: { amountMinor: 200, amount: '2.00', formatted: '₦2' },
      total: { amountMinor: 500 },
    });

    const tooLittle = await startCheckout({ productId: product.productId, amount: '1.99' });
    expect(tooLittle.status).toBe(400);
    expect(tooLittle.body.error).toEqual({
      code: 'amount_below_minimum',
      message: 'The minimum for this product is ₦2',
    });
    const nonsense = await startCheckout({ productId: product.productId, amount: 'lots' });
    expect(nonsense.body.error).toEqual({
      code: 'invalid_amount',
      message: 'Please enter the amount you want to pay, like 12.50',
    });

    const generous = await startCheckout({ productId: product.productId, amount: '7' });
    expect(generous.status).toBe(200);
    const purchase = await pay(generous.buyer, generous.body.txRef);
    expect(purchase).toMatchObject({ amount_minor: 700, fee_platform_minor: 35 });

    const everywhere = await createCode(
      await sellerClient({ ...newSeller(), id: product.ownerId }),
      {
        code: uniqueCode(),
      },
    );
    const withCode = await quote({ productId: product.productId, discountCode: everywhere.code });
    expect(withCode.body.error).toEqual({
      code: 'discount_not_applicable',
      message: 'Discount codes do not apply when you choose what to pay',
    });
  });

  it('a minimum that converts to less than one minor unit still asks for one: it never becomes a free claim', async () => {
    const product = await harness.publishProduct({
      priceMinor: 2_500,
      minimumPriceMinor: 1,
      currency: 'NGN',
    });
    await harness.publish(
      (await import('@lockdrop/contracts')).createEvent(
        'fx.rates.updated',
        { source: 'test', rates: [{ from: 'USD', to: 'NGN', rate: '1500' }] },
        { correlationId: 'fx' },
      ),
    );
    await waitFor(async () =>
      Boolean(
        (await harness.pool.query(`SELECT 1 FROM exchange_rates WHERE to_currency = 'NGN'`))
          .rowCount,
      ),
    );
    // NGN 0.01 is USD 0.0000067: rounded to the nearest cent it was 0, and 0 paid nothing.
    const shown = await quote({ productId: product.productId, currency: 'USD' });
    expect(shown.body.minimum).toMatchObject({ amountMinor: 1, amount: '0.01' });
    const nothing = await startCheckout({
      productId: product.productId,
      currency: 'USD',
      amount: '0',
    });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.code).toBe('amount_below_minimum');
  });

  it('with a minimum of zero, a buyer may take the file for nothing', async () => {
    const product = await harness.publishProduct({ priceMinor: 1_000, minimumPriceMinor: 0 });
    const buyerEmail = `zero-${randomUUID()}@example.com`;
    await buy(harness, (await harness.publishProduct()).productId, buyerEmail);
    const started = await startCheckout({ productId: product.productId, amount: '0', buyerEmail });
    expect(started.status).toBe(200);
    expect(new URL(started.body.link).pathname).toBe('/payment/success');
    const { rows } = await harness.pool.query(
      'SELECT amount_minor, provider FROM purchases WHERE tx_ref = $1',
      [started.body.txRef],
    );
    expect(rows[0]).toEqual({ amount_minor: 0, provider: 'free' });
  });
});

describe('with Flutterwave', () => {
  let fake: FakeFlutterwave;
  let flutterwave: Harness;
  beforeAll(async () => {
    fake = await startFakeFlutterwave();
    flutterwave = await startHarness({
      ...fake.env,
      DISCOUNT_CHECKOUT_MINUTES: '45',
    });
  });
  afterAll(async () => {
    await flutterwave?.close();
    await fake?.close();
  });

  it('asks for a hosted page that stops taking payment when the code’s hold ends', async () => {
    const user = newSeller();
    const token = await flutterwave.token(user);
    const product = await flutterwave.publishProduct({ ownerId: user.id });
    const created = await fetch(new URL('/api/discount-codes', flutterwave.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: uniqueCode(), kind: 'percent', percentOff: 10 }),
    });
    const { code } = (await created.json()) as { code: string };
    const buyer = browser(flutterwave.url);
    const withCode = await (
      await buyer.postJson('/api/checkout', {
        productId: product.productId,
        buyerEmail: 'fw@example.com',
        discountCode: code,
      })
    ).json();
    expect(fake.intents.get(withCode.txRef)).toMatchObject({
      amount: '4500.00',
      sessionDuration: 45,
    });
    const without = await (
      await buyer.postJson('/api/checkout', {
        productId: product.productId,
        buyerEmail: 'fw@example.com',
      })
    ).json();
    expect(fake.intents.get(without.txRef)).toMatchObject({
      amount: '5000.00',
      sessionDuration: null,
    });
  });

  it('a discounted checkout paid after its payment page expired is handed back, not settled: the code’s limits hold even when the provider keeps the page open', async () => {
    const user = newSeller();
    const token = await flutterwave.token(user);
    const product = await flutterwave.publishProduct({ ownerId: user.id });
    const created = await fetch(new URL('/api/discount-codes', flutterwave.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: uniqueCode(), kind: 'percent', percentOff: 10, maxUses: 1 }),
    });
    const { code } = (await created.json()) as { code: string };
    const late = await (
      await browser(flutterwave.url).postJson('/api/checkout', {
        productId: product.productId,
        buyerEmail: `late-${randomUUID()}@example.com`,
        discountCode: code,
      })
    ).json();
    // The provider took payment 46 minutes later, past the 45-minute hold it was asked to keep.
    const paid = fake.pay(late.txRef, { at: new Date(Date.now() + 46 * 60_000) });
    const raw = JSON.stringify(fake.envelopeWebhook(paid));
    await fetch(new URL('/api/webhooks/flutterwave', flutterwave.url), {
      method: 'POST',
      headers: fake.signedHeaders(raw),
      body: raw,
    });
    await waitFor(async () =>
      Boolean(
        (
          await flutterwave.pool.query(
            `SELECT 1 FROM provider_events WHERE tx_ref = $1 AND status = 'processed'`,
            [late.txRef],
          )
        ).rowCount,
      ),
    );
    const { rows: purchases } = await flutterwave.pool.query(
      'SELECT 1 FROM purchases WHERE tx_ref = $1',
      [late.txRef],
    );
    expect(purchases).toEqual([]);
    const { rows: mismatches } = await flutterwave.pool.query(
      'SELECT reasons FROM payment_mismatches WHERE transaction_id = $1',
      [String(paid.id)],
    );
    expect(mismatches).toEqual([{ reasons: ['expired'] }]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '../src/domain/analytics.js';
import {
  daysAgo,
  makePaid,
  makeProduct,
  refundOf,
  startAnalytics,
  view,
  type AnalyticsHarness,
  type Seller,
} from './support.js';

let analytics: AnalyticsHarness;

beforeAll(async () => {
  analytics = await startAnalytics();
});
afterAll(async () => {
  await analytics?.close();
});

const overview = async (seller: Seller, days = 30) => {
  const response = await analytics.get<Overview>(`/api/analytics/overview?days=${days}`, seller);
  expect(response.status).toBe(200);
  return response.body;
};

async function productOf(seller: Seller, title = 'Sunset pack') {
  const product = makeProduct({ ownerId: seller.id, title });
  await analytics.publish('product.created', product);
  return product;
}

describe('GET /api/analytics/overview', () => {
  it('answers 401 when signed out', async () => {
    const response = await analytics.get<{ error: { code: string } }>('/api/analytics/overview');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });

  it('shows a brand new seller zeros, no revenue and no unlock rate', async () => {
    const figures = await overview(await analytics.seller());
    expect(figures).toMatchObject({
      days: 30,
      from: '2025-06-01',
      to: '2025-06-30',
      revenue: [],
      views: { value: 0, previous: 0, changePercent: null },
      uniqueVisitors: { value: 0 },
      checkoutsStarted: { value: 0 },
      sales: { value: 0 },
      downloads: { value: 0 },
      unlockRate: { value: null, previous: null, changePercent: null },
      testSales: [],
    });
  });

  it("never counts another seller's products", async () => {
    const [alice, bob] = [await analytics.seller(), await analytics.seller()];
    const alicesProduct = await productOf(alice);
    const bobsProduct = await productOf(bob);
    await analytics.publish('product.viewed', view(alicesProduct.productId));
    for (let i = 0; i < 3; i += 1)
      await analytics.publish('product.viewed', view(bobsProduct.productId));
    await analytics.publish('checkout.started', {
      checkoutId: crypto.randomUUID(),
      txRef: 'ld_bob',
      productId: bobsProduct.productId,
      sellerId: bob.id,
      buyerEmail: 'buyer@example.com',
      amountMinor: 5000,
      currency: 'USD',
    });
    const alicesSale = makePaid(alicesProduct, { amountMinor: 1000 });
    await analytics.publish('purchase.paid', alicesSale);
    await analytics.publish('purchase.paid', makePaid(bobsProduct, { amountMinor: 5000 }));
    await analytics.publish('download.completed', {
      purchaseId: crypto.randomUUID(),
      productId: bobsProduct.productId,
      fileId: bobsProduct.fileId,
      bytesSent: 10,
    });

    const figures = await overview(alice);
    expect(figures.views.value).toBe(1);
    expect(figures.uniqueVisitors.value).toBe(1);
    expect(figures.checkoutsStarted.value).toBe(0);
    expect(figures.sales.value).toBe(1);
    expect(figures.downloads.value).toBe(0);
    expect(figures.unlockRate.value).toBe(100);
    expect(figures.revenue).toEqual([
      expect.objectContaining({
        currency: 'USD',
        grossMinor: 1000,
        netMinor: alicesSale.sellerEarningsMinor,
      }),
    ]);

    const bobs = await overview(bob);
    expect(bobs).toMatchObject({
      views: { value: 3 },
      checkoutsStarted: { value: 1 },
      sales: { value: 1 },
      downloads: { value: 1 },
    });
    expect(bobs.unlockRate.value).toBeCloseTo(33.3);
  });

  it('counts a redelivered event, a second event about the same payment and a repeat visit once', async () => {
    const seller = await analytics.seller();
    const product = await productOf(seller);
    const paid = makePaid(product, { amountMinor: 2000 });
    const event = await analytics.publish('purchase.paid', paid);
    await analytics.redeliver(event);
    // A new event id about the same purchase (a producer retry) must not count again either.
    await analytics.publish('purchase.paid', paid);
    const visit = view(product.productId);
    await analytics.publish('product.viewed', visit);
    await analytics.publish('product.viewed', visit);
    // Consumers take messages in order: once this later event is in, the redelivery was handled.
    await analytics.publish(
      'purchase.paid',
      makePaid(makeProduct({ ownerId: crypto.randomUUID() })),
    );

    const figures = await overview(seller);
    expect(figures.sales.value).toBe(1);
    expect(figures.views.value).toBe(1);
    expect(figures.revenue).toEqual([
      expect.objectContaining({
        currency: 'USD',
        grossMinor: 2000,
        netMinor: paid.sellerEarningsMinor,
      }),
    ]);
  });

  it('counts a burst of payments and views applied in batches exactly, duplicates and an early refund included', async () => {
    const seller = await analytics.seller();
    const product = await productOf(seller);
    const payments = Array.from({ length: 30 }, (_, index) =>
      makePaid(product, { amountMinor: 1000 + index }),
    );
    await analytics.publish('purchase.refunded', refundOf(payments[3]!));
    const visitors = Array.from({ length: 10 }, () => crypto.randomUUID());
    const events = await Promise.all([
      ...payments.map((paid) => analytics.publish('purchase.paid', paid)),
      // A second event about five of the payments (another id), inside the same burst.
      ...payments.slice(0, 5).map((paid) => analytics.publish('purchase.paid', paid)),
      ...visitors.flatMap((visitor) =>
        [1, 2, 3].map(() =>
          analytics.publish('product.viewed', view(product.productId, undefined, visitor)),
        ),
      ),
    ]);
    for (const event of events.slice(10, 15)) await analytics.redeliver(event);
    // Consumers take messages in order: once these later events are in, the copies were handled.
    await analytics.publish(
      'purchase.paid',
      makePaid(makeProduct({ ownerId: crypto.randomUUID() })),
    );

    const figures = await overview(seller);
    expect(figures.sales.value).toBe(payments.length);
    expect(figures.refunds.value).toBe(1);
    expect(figures.views.value).toBe(visitors.length);
    expect(figures.revenue).toEqual([
      expect.objectContaining({
        currency: 'USD',
        grossMinor: payments.reduce((sum, paid) => sum + paid.amountMinor, 0),
        earningsMinor: payments.reduce((sum, paid) => sum + paid.sellerEarningsMinor!, 0),
        refundedMinor: payments[3]!.sellerEarningsMinor,
      }),
    ]);
    // Many events per transaction, not one each.
    const { rows } = await analytics.db.query<{ transactions: number }>(
      `SELECT count(DISTINCT xmin::text)::int AS transactions FROM raw_events
       WHERE product_id = $1 AND type = 'purchase.paid'`,
      [product.productId],
    );
    expect(rows[0]!.transactions).toBeLessThan(payments.length / 2);
  });

  it('keeps test sales out of sales, revenue and the unlock rate, and reports them apart', async () => {
    const seller = await analytics.seller();
    const product = await productOf(seller);
    await analytics.publish('product.viewed', view(product.productId));
    const live = makePaid(product, { amountMinor: 3000 });
    const test = makePaid(product, { amountMinor: 250_000, currency: 'NGN', testMode: true });
    const refundedTest = makePaid(product, { amountMinor: 1000, testMode: true });
    await analytics.publish('purchase.paid', live);
    await analytics.publish('purchase.paid', test);
    await analytics.publish('purchase.paid', refundedTest);
    await analytics.publish('purchase.refunded', refundOf(refundedTest));

    const figures = await overview(seller);
    expect(figures.sales.value).toBe(1);
    expect(figures.refunds.value).toBe(0);
    expect(figures.unlockRate.value).toBe(100);
    expect(figures.revenue).toEqual([
      expect.objectContaining({
        currency: 'USD',
        grossMinor: 3000,
        refundedMinor: 0,
        netMinor: live.sellerEarningsMinor,
      }),
    ]);
    expect(figures.testSales).toEqual([
      { currency: 'NGN', sales: 1, refunds: 0, grossMinor: 250_000 },
      { currency: 'USD', sales: 1, refunds: 1, grossMinor: 1000 },
    ]);
  });

  it('subtracts refunded earnings, whichever of payment and refund arrives first', async () => {
    const seller = await analytics.seller();
    const product = await productOf(seller);
    const kept = makePaid(product, { amountMinor: 3000 });
    const refunded = makePaid(product, { amountMinor: 1000 });
    const refundedEarly = makePaid(product, { amountMinor: 700 });
    await analytics.publish('purchase.paid', kept);
    await analytics.publish('purchase.paid', refunded);
    await analytics.publish('purchase.refunded', refundOf(refunded));
    await analytics.publish('purchase.refunded', refundOf(refundedEarly));
    await analytics.publish('purchase.paid', refundedEarly);

    const figures = await overview(seller);
    expect(figures.sales.value).toBe(3);
    expect(figures.refunds.value).toBe(2);
    const [usd] = figures.revenue;
    expect(usd).toMatchObject({
      currency: 'USD',
      earningsMinor:
        kept.sellerEarningsMinor! +
        refunded.sellerEarningsMinor! +
        refundedEarly.sellerEarningsMinor!,
      refundedMinor: refunded.sellerEarningsMinor! + refundedEarly.sellerEarningsMinor!,
      netMinor: kept.sellerEarningsMinor,
    });
  });

  it('keeps every currency separate', async () => {
    const seller = await analytics.seller();
    const product = await productOf(seller);
    const dollars = makePaid(product, { amountMinor: 1500, currency: 'USD' });
    const naira = makePaid(product, { amountMinor: 500_000, currency: 'NGN' });
    const moreNaira = makePaid(product, { amountMinor: 250_000, currency: 'NGN' });
    for (const paid of [dollars, naira, moreNaira]) await analytics.publish('purchase.paid', paid);

    const figures = await overview(seller);
    expect(figures.revenue.map((figure) => [figure.currency, figure.netMinor])).toEqual([
      ['NGN', naira.sellerEarningsMinor! + moreNaira.sellerEarningsMinor!],
      ['USD', dollars.sellerEarningsMinor],
    ]);
  });

  it('compares with the period before for real change percentages', async () => {
    const seller = await analytics.seller();
    const product = await productOf(seller);
    const before = makePaid(product, {
      amountMinor: 1000,
      feePlatformMinor: 0,
      feeProcessorMinor: 0,
      sellerEarningsMinor: 1000,
      paidAt: daysAgo(10),
    });
    const now = makePaid(product, {
      amountMinor: 1500,
      feePlatformMinor: 0,
      feeProcessorMinor: 0,
      sellerEarningsMinor: 1500,
      paidAt: daysAgo(2),
    });
    const tooOld = makePaid(product, { amountMinor: 9000, paidAt: daysAgo(20) });
    for (const paid of [before, now, tooOld]) await analytics.publish('purchase.paid', paid);
    await analytics.publish('product.viewed', view(product.productId, daysAgo(9).slice(0, 10)));
    await analytics.publish('product.viewed', view(product.productId, daysAgo(9).slice(0, 10)));
    for (let i = 0; i < 3; i += 1)
      await analytics.publish('product.viewed', view(product.productId, daysAgo(1).slice(0, 10)));

    const figures = await overview(seller, 7);
    expect(figures).toMatchObject({ from: '2025-06-24', to: '2025-06-30' });
    expect(figures.revenue).toEqual([
      expect.objectContaining({
        currency: 'USD',
        netMinor: 1500,
        previousNetMinor: 1000,
        changePercent: 50,
      }),
    ]);
    expect(figures.views).toEqual({ value: 3, previous: 2, changePercent: 50 });
    expect(figures.sales).toEqual({ value: 1, previous: 1, changePercent: 0 });
    expect(figures.unlockRate.value).toBeCloseTo(33.3);
    expect(figures.unlockRate.previous).toBe(50);
  });

  it('rejects a period outside 1 to 365 days', async () => {
    const seller = await analytics.seller();
    expect((await analytics.get('/api/analytics/overview?days=0', seller)).status).toBe(400);
    expect((await analytics.get('/api/analytics/overview?days=366', seller)).status).toBe(400);
  });
});

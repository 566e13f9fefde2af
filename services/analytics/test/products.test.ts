import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyPoint, ProductFigures } from '../src/domain/analytics.js';
import {
  daysAgo,
  makePaid,
  makeProduct,
  refundOf,
  startAnalytics,
  view,
  type AnalyticsHarness,
} from './support.js';

let analytics: AnalyticsHarness;

beforeAll(async () => {
  analytics = await startAnalytics();
});
afterAll(async () => {
  await analytics?.close();
});

type Daily = { productId: string; title: string; series: DailyPoint[] };

describe('GET /api/analytics/products', () => {
  it('answers 401 when signed out', async () => {
    expect((await analytics.get('/api/analytics/products')).status).toBe(401);
    expect(
      (await analytics.get(`/api/analytics/products/${crypto.randomUUID()}/daily`)).status,
    ).toBe(401);
  });

  it("lists the seller's own products with their totals, zeros for products without activity", async () => {
    const [alice, bob] = [await analytics.seller(), await analytics.seller()];
    const busy = makeProduct({ ownerId: alice.id, title: 'Beat tape' });
    const quiet = makeProduct({ ownerId: alice.id, title: 'Zine' });
    const bobs = makeProduct({ ownerId: bob.id, title: 'Bob only' });
    for (const product of [busy, quiet, bobs]) await analytics.publish('product.created', product);
    await analytics.publish('product.updated', { ...busy, title: 'Beat tape (remastered)' });
    await analytics.publish('product.viewed', view(busy.productId));
    const paid = makePaid(busy, { amountMinor: 2500 });
    await analytics.publish('purchase.paid', paid);
    await analytics.publish('purchase.paid', makePaid(bobs));
    await analytics.publish('download.completed', {
      purchaseId: paid.purchaseId,
      productId: busy.productId,
      fileId: busy.fileId,
      bytesSent: 1,
    });

    const { status, body } = await analytics.get<{ products: ProductFigures[] }>(
      '/api/analytics/products',
      alice,
    );
    expect(status).toBe(200);
    expect(body.products).toEqual([
      {
        productId: busy.productId,
        title: 'Beat tape (remastered)',
        deleted: false,
        views: 1,
        uniqueVisitors: 1,
        checkoutsStarted: 0,
        sales: 1,
        refunds: 0,
        downloads: 1,
        unlockRate: 100,
        revenue: [
          {
            currency: 'USD',
            grossMinor: 2500,
            earningsMinor: paid.sellerEarningsMinor,
            refundedMinor: 0,
            netMinor: paid.sellerEarningsMinor,
          },
        ],
      },
      expect.objectContaining({
        productId: quiet.productId,
        title: 'Zine',
        views: 0,
        sales: 0,
        unlockRate: null,
        revenue: [],
      }),
    ]);
  });

  it('counts every download and checkout of a burst, a redelivered one once', async () => {
    const seller = await analytics.seller();
    const product = makeProduct({ ownerId: seller.id, title: 'Sample pack' });
    await analytics.publish('product.created', product);
    // Published together, so the consumers take them several at a time.
    const [downloads, checkouts] = await Promise.all([
      Promise.all(
        Array.from({ length: 6 }, () =>
          analytics.publish('download.completed', {
            purchaseId: crypto.randomUUID(),
            productId: product.productId,
            fileId: product.fileId,
            bytesSent: 1,
          }),
        ),
      ),
      Promise.all(
        Array.from({ length: 4 }, (_, index) =>
          analytics.publish('checkout.started', {
            checkoutId: crypto.randomUUID(),
            txRef: `ld_burst_${index}`,
            productId: product.productId,
            sellerId: seller.id,
            buyerEmail: 'buyer@example.com',
            amountMinor: 500,
            currency: 'USD',
          }),
        ),
      ),
    ]);
    await analytics.redeliver(downloads[0]!);
    await analytics.redeliver(checkouts[0]!);
    // Published after the redeliveries on the same subjects, so counted after them.
    await analytics.publish('download.completed', {
      purchaseId: crypto.randomUUID(),
      productId: product.productId,
      fileId: product.fileId,
      bytesSent: 1,
    });
    await analytics.publish('checkout.started', {
      checkoutId: crypto.randomUUID(),
      txRef: 'ld_burst_last',
      productId: product.productId,
      sellerId: seller.id,
      buyerEmail: 'buyer@example.com',
      amountMinor: 500,
      currency: 'USD',
    });

    const { body } = await analytics.get<{ products: ProductFigures[] }>(
      '/api/analytics/products',
      seller,
    );
    expect(body.products).toEqual([
      expect.objectContaining({ productId: product.productId, downloads: 7, checkoutsStarted: 5 }),
    ]);
  });

  it('keeps a deleted product and its sales, marked deleted', async () => {
    const seller = await analytics.seller();
    const product = makeProduct({ ownerId: seller.id });
    await analytics.publish('product.created', product);
    await analytics.publish('purchase.paid', makePaid(product));
    await analytics.publish('product.deleted', {
      productId: product.productId,
      ownerId: seller.id,
    });
    // A snapshot delivered late must not bring it back.
    await analytics.publish('product.updated', product, { occurredAt: daysAgo(1) });

    const { body } = await analytics.get<{ products: ProductFigures[] }>(
      '/api/analytics/products',
      seller,
    );
    expect(body.products).toEqual([
      expect.objectContaining({ productId: product.productId, deleted: true, sales: 1 }),
    ]);
  });
});

describe('GET /api/analytics/products/:id/daily', () => {
  it('gives one point per day, oldest first, with the day each thing happened', async () => {
    const seller = await analytics.seller();
    const product = makeProduct({ ownerId: seller.id });
    await analytics.publish('product.created', product);
    const paid = makePaid(product, { currency: 'EUR', amountMinor: 1200, paidAt: daysAgo(3) });
    await analytics.publish('purchase.paid', paid);
    await analytics.publish('purchase.refunded', refundOf(paid, daysAgo(1)));
    await analytics.publish('product.viewed', view(product.productId, daysAgo(3).slice(0, 10)));
    await analytics.publish('product.viewed', view(product.productId, daysAgo(3).slice(0, 10)));

    const { status, body } = await analytics.get<Daily>(
      `/api/analytics/products/${product.productId}/daily?days=7`,
      seller,
    );
    expect(status).toBe(200);
    expect(body.series.map((point) => point.day)).toEqual([
      '2025-06-24',
      '2025-06-25',
      '2025-06-26',
      '2025-06-27',
      '2025-06-28',
      '2025-06-29',
      '2025-06-30',
    ]);
    const byDay = new Map(body.series.map((point) => [point.day, point]));
    expect(byDay.get('2025-06-27')).toMatchObject({
      views: 2,
      uniqueVisitors: 2,
      sales: 1,
      refunds: 0,
      revenue: [{ currency: 'EUR', grossMinor: 1200, netMinor: paid.sellerEarningsMinor }],
    });
    expect(byDay.get('2025-06-29')).toMatchObject({
      sales: 0,
      refunds: 1,
      revenue: [{ currency: 'EUR', netMinor: -paid.sellerEarningsMinor! }],
    });
    expect(byDay.get('2025-06-30')).toMatchObject({ views: 0, sales: 0, revenue: [] });
  });

  it("answers 404 for someone else's product and for an unknown one", async () => {
    const [owner, stranger] = [await analytics.seller(), await analytics.seller()];
    const product = makeProduct({ ownerId: owner.id });
    await analytics.publish('product.created', product);

    const theirs = await analytics.get<{ error: { code: string } }>(
      `/api/analytics/products/${product.productId}/daily`,
      stranger,
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('product_not_found');
    expect(
      (await analytics.get(`/api/analytics/products/${crypto.randomUUID()}/daily`, owner)).status,
    ).toBe(404);
    expect(
      (await analytics.get(`/api/analytics/products/${product.productId}/daily`, owner)).status,
    ).toBe(200);
  });
});

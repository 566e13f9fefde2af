import type { Overview, V1AnalyticsOverview } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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

type ErrorBody = { error: { code: string; message: string } };

/** A seller with one product, a view, a live sale, a test sale and a refunded test sale. */
async function sellerWithSales() {
  const seller = await analytics.seller();
  const product = makeProduct({ ownerId: seller.id, title: 'Sunset pack' });
  await analytics.publish('product.created', product);
  await analytics.publish('product.viewed', view(product.productId));
  const live = makePaid(product, { amountMinor: 3000 });
  const test = makePaid(product, { amountMinor: 250_000, currency: 'NGN', testMode: true });
  const refundedTest = makePaid(product, { amountMinor: 1000, testMode: true });
  await analytics.publish('purchase.paid', live);
  await analytics.publish('purchase.paid', test);
  await analytics.publish('purchase.paid', refundedTest);
  await analytics.publish('purchase.refunded', refundOf(refundedTest));
  return { seller, live };
}

const v1Overview = async (key: Seller, query = '') => {
  const response = await analytics.get<V1AnalyticsOverview>(
    `/api/v1/analytics/overview${query}`,
    key,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

describe('GET /api/v1/analytics/overview', () => {
  it("gives a live key the dashboard's live figures, with no test sale in them", async () => {
    const { seller, live } = await sellerWithSales();
    const dashboard = (await analytics.get<Overview>('/api/analytics/overview', seller)).body;
    const figures = await v1Overview(await analytics.apiKey(seller, ['analytics:read'], 'live'));

    const { testSales: _testSales, ...liveFigures } = dashboard;
    expect(figures).toEqual({ object: 'analytics_overview', mode: 'live', ...liveFigures });
    expect(figures).not.toHaveProperty('testSales');
    expect(figures.sales.value).toBe(1);
    expect(figures.refunds.value).toBe(0);
    expect(figures.revenue).toEqual([
      expect.objectContaining({
        currency: 'USD',
        grossMinor: 3000,
        netMinor: live.sellerEarningsMinor,
      }),
    ]);
  });

  it('gives a test key only its test sales: counts and gross, no earnings', async () => {
    const { seller } = await sellerWithSales();
    const figures = await v1Overview(await analytics.apiKey(seller, ['analytics:read'], 'test'));
    expect(figures.mode).toBe('test');
    expect(figures.sales).toEqual({ value: 2, previous: 0, changePercent: null });
    expect(figures.refunds).toEqual({ value: 1, previous: 0, changePercent: null });
    expect(figures.revenue).toEqual([
      {
        currency: 'NGN',
        grossMinor: 250_000,
        earningsMinor: null,
        refundedMinor: null,
        netMinor: null,
        previousNetMinor: null,
        changePercent: null,
      },
      expect.objectContaining({ currency: 'USD', grossMinor: 1000, netMinor: null }),
    ]);
    // Traffic has no mode: the same views for both keys.
    expect(figures.views.value).toBe(1);
  });

  it("counts only the key's seller: another seller's key sees none of it", async () => {
    await sellerWithSales();
    const other = await analytics.seller();
    for (const mode of ['live', 'test'] as const) {
      const figures = await v1Overview(await analytics.apiKey(other, ['analytics:read'], mode));
      expect(figures.sales.value).toBe(0);
      expect(figures.views.value).toBe(0);
      expect(figures.revenue).toEqual([]);
    }
  });

  it('refuses a session (401), a key without analytics:read (403) and bad queries (400)', async () => {
    const { seller } = await sellerWithSales();
    const session = await analytics.get<ErrorBody>('/api/v1/analytics/overview', seller);
    expect(session.status).toBe(401);
    expect(session.body.error.code).toBe('api_key_required');

    const products = await analytics.apiKey(seller, ['products:read', 'sales:read']);
    const forbidden = await analytics.get<ErrorBody>('/api/v1/analytics/overview', products);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('insufficient_scope');

    const key = await analytics.apiKey(seller, ['analytics:read']);
    for (const query of ['?days=0', '?days=366', '?days=ten', '?period=week']) {
      const refused = await analytics.get<ErrorBody>(`/api/v1/analytics/overview${query}`, key);
      expect(refused.status, query).toBe(400);
      expect(Object.keys(refused.body)).toEqual(['error']);
      expect(refused.body.error).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
      });
    }
    expect((await v1Overview(key, '?days=7')).days).toBe(7);
  });
});

import type {
  ApiKeyMode,
  V1AnalyticsOverview,
  DailyPoint,
  Metric,
  Overview,
  ProductFigures,
  RevenueFigure,
} from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import { errors } from '@lockdrop/http';
import {
  countsByProduct,
  countUniqueVisitors,
  dailyCounts,
  dailyRevenue,
  revenueByProduct,
  sumCounts,
  sumRevenue,
  sumTestSales,
  visitorsByProduct,
  type Counts,
  type CurrencyRevenue,
  type DayRange,
} from '../db/figures.repo.js';
import { findOwnedProduct, listOwnedProducts } from '../db/products.repo.js';
import { changePercent, daysOf, periodsEndingOn, unlockRatePercent } from './period.js';

// What the dashboards receive is defined once, in libs/contracts (api/analytics.ts).
export type { DailyPoint, Metric, Overview, ProductFigures, RevenueFigure };

const ZERO_COUNTS: Counts = { views: 0, checkoutsStarted: 0, sales: 0, refunds: 0, downloads: 0 };

const toRevenueFigure = (row: CurrencyRevenue): RevenueFigure => ({
  currency: row.currency,
  grossMinor: row.grossMinor,
  earningsMinor: row.earningsMinor,
  refundedMinor: row.refundedEarningsMinor,
  netMinor: row.earningsMinor - row.refundedEarningsMinor,
});

const metric = (value: number, previous: number): Metric => ({
  value,
  previous,
  changePercent: changePercent(value, previous),
});

export type Analytics = ReturnType<typeof createAnalyticsService>;

/** The signed-in seller's figures; every read is restricted to products they own. */
export function createAnalyticsService({ pool, now }: { pool: Pool; now: () => Date }) {
  async function periodFigures(ownerId: string, range: DayRange) {
    const scope = { ownerId };
    const [counts, visitors, revenue] = await Promise.all([
      sumCounts(pool, scope, range),
      countUniqueVisitors(pool, scope, range),
      sumRevenue(pool, scope, range),
    ]);
    return { counts, visitors, revenue: revenue.map(toRevenueFigure) };
  }

  function revenueWithChange(
    current: RevenueFigure[],
    previous: RevenueFigure[],
  ): Overview['revenue'] {
    const currencies = [
      ...new Set([...current, ...previous].map((figure) => figure.currency)),
    ].sort();
    return currencies.map((currency) => {
      const now = current.find((figure) => figure.currency === currency);
      const before = previous.find((figure) => figure.currency === currency)?.netMinor ?? 0;
      const figure = now ?? {
        currency,
        grossMinor: 0,
        earningsMinor: 0,
        refundedMinor: 0,
        netMinor: 0,
      };
      return {
        ...figure,
        previousNetMinor: before,
        changePercent: changePercent(figure.netMinor, before),
      };
    });
  }

  async function overview(ownerId: string, days: number): Promise<Overview> {
    const periods = periodsEndingOn(now(), days);
    const [current, before, testSales] = await Promise.all([
      periodFigures(ownerId, periods.current),
      periodFigures(ownerId, periods.previous),
      sumTestSales(pool, { ownerId }, periods.current),
    ]);
    const rate = unlockRatePercent(current.counts.sales, current.visitors);
    const previousRate = unlockRatePercent(before.counts.sales, before.visitors);
    return {
      days,
      ...periods.current,
      revenue: revenueWithChange(current.revenue, before.revenue),
      views: metric(current.counts.views, before.counts.views),
      uniqueVisitors: metric(current.visitors, before.visitors),
      checkoutsStarted: metric(current.counts.checkoutsStarted, before.counts.checkoutsStarted),
      sales: metric(current.counts.sales, before.counts.sales),
      refunds: metric(current.counts.refunds, before.counts.refunds),
      downloads: metric(current.counts.downloads, before.counts.downloads),
      unlockRate: {
        value: rate,
        previous: previousRate,
        changePercent:
          rate === null || previousRate === null ? null : changePercent(rate, previousRate),
      },
      testSales,
    };
  }

  return {
    overview,

    /**
     * `/api/v1/analytics/overview`: the dashboard's overview for an API key's mode. Test sales
     * (sandbox, test keys) never mix with live figures (issue 29): a live key gets the live
     * figures without them, a test key gets them as its sales, refunds and gross revenue.
     */
    async apiOverview(
      ownerId: string,
      days: number,
      mode: ApiKeyMode,
    ): Promise<V1AnalyticsOverview> {
      const { testSales, ...figures } = await overview(ownerId, days);
      if (mode === 'live') return { object: 'analytics_overview', mode, ...figures };
      const periods = periodsEndingOn(now(), days);
      const before = await sumTestSales(pool, { ownerId }, periods.previous);
      const total = (rows: typeof testSales, field: 'sales' | 'refunds') =>
        rows.reduce((sum, row) => sum + row[field], 0);
      const sales = metric(total(testSales, 'sales'), total(before, 'sales'));
      const rate = unlockRatePercent(sales.value, figures.uniqueVisitors.value);
      const previousRate = unlockRatePercent(sales.previous, figures.uniqueVisitors.previous);
      return {
        object: 'analytics_overview',
        mode,
        ...figures,
        // A test sale earns and refunds no real money: only its gross amount is known.
        revenue: testSales.map((row) => ({
          currency: row.currency,
          grossMinor: Number(row.grossMinor),
          earningsMinor: null,
          refundedMinor: null,
          netMinor: null,
          previousNetMinor: null,
          changePercent: null,
        })),
        sales,
        refunds: metric(total(testSales, 'refunds'), total(before, 'refunds')),
        unlockRate: {
          value: rate,
          previous: previousRate,
          changePercent:
            rate === null || previousRate === null ? null : changePercent(rate, previousRate),
        },
      };
    },

    async products(ownerId: string, days: number): Promise<ProductFigures[]> {
      const range = periodsEndingOn(now(), days).current;
      const [products, counts, visitors, revenue] = await Promise.all([
        listOwnedProducts(pool, ownerId),
        countsByProduct(pool, ownerId, range),
        visitorsByProduct(pool, ownerId, range),
        revenueByProduct(pool, ownerId, range),
      ]);
      return products.map((product) => {
        const productCounts = counts.get(product.productId) ?? ZERO_COUNTS;
        const uniqueVisitors = visitors.get(product.productId) ?? 0;
        return {
          ...product,
          ...productCounts,
          uniqueVisitors,
          unlockRate: unlockRatePercent(productCounts.sales, uniqueVisitors),
          revenue: (revenue.get(product.productId) ?? []).map(toRevenueFigure),
        };
      });
    },

    /** 404 rather than 403 for someone else's product: its existence is not theirs to learn. */
    async daily(
      ownerId: string,
      productId: string,
      days: number,
    ): Promise<{ productId: string; title: string; series: DailyPoint[] }> {
      const product = await findOwnedProduct(pool, ownerId, productId);
      if (!product) throw errors.notFound('product_not_found', 'Product not found');
      const range = periodsEndingOn(now(), days).current;
      const [counts, revenue] = await Promise.all([
        dailyCounts(pool, productId, range),
        dailyRevenue(pool, productId, range),
      ]);
      const series = daysOf(range).map((day): DailyPoint => {
        const row = counts.find((entry) => entry.day === day);
        return {
          day,
          ...(row
            ? {
                views: row.views,
                checkoutsStarted: row.checkoutsStarted,
                sales: row.sales,
                refunds: row.refunds,
                downloads: row.downloads,
              }
            : ZERO_COUNTS),
          uniqueVisitors: row?.visitors ?? 0,
          revenue: revenue.filter((entry) => entry.day === day).map(toRevenueFigure),
        };
      });
      return { productId, title: product.title, series };
    },
  };
}

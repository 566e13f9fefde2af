import { z } from 'zod';

/**
 * The seller dashboards' figures (analytics' `/api/analytics/*`): analytics validates and
 * documents its answers with these schemas, and the web's types are inferred from them.
 */

/** Periods are whole UTC days ending today; a year is the longest a dashboard asks for. */
export const analyticsDaysQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
});

export const metricSchema = z.object({
  value: z.number().int(),
  previous: z.number().int(),
  /** Percent, one decimal; null when the previous period was zero. */
  changePercent: z.number().nullable(),
});
export type Metric = z.infer<typeof metricSchema>;

/** Amounts in minor units of `currency`; currencies are never added together. */
export const revenueFigureSchema = z.object({
  currency: z.string(),
  grossMinor: z.number().int(),
  earningsMinor: z.number().int(),
  refundedMinor: z.number().int(),
  /** Earnings of sales paid in the period minus earnings reversed by refunds in it. */
  netMinor: z.number().int(),
});
export type RevenueFigure = z.infer<typeof revenueFigureSchema>;

const countsShape = {
  views: z.number().int(),
  checkoutsStarted: z.number().int(),
  sales: z.number().int(),
  refunds: z.number().int(),
  downloads: z.number().int(),
  uniqueVisitors: z.number().int(),
};

export const overviewSchema = z.object({
  days: z.number().int(),
  from: z.iso.date(),
  to: z.iso.date(),
  revenue: z.array(
    revenueFigureSchema.extend({
      previousNetMinor: z.number().int(),
      changePercent: z.number().nullable(),
    }),
  ),
  views: metricSchema,
  uniqueVisitors: metricSchema,
  checkoutsStarted: metricSchema,
  sales: metricSchema,
  refunds: metricSchema,
  downloads: metricSchema,
  /** Sales per unique visitor, percent; null without visitors. */
  unlockRate: z.object({
    value: z.number().nullable(),
    previous: z.number().nullable(),
    changePercent: z.number().nullable(),
  }),
  /**
   * Sandbox or test-key sales in the period, per currency (issue 29): no real money moved, so
   * they are in none of the figures above (sales, revenue, refunds, unlock rate).
   */
  testSales: z.array(
    z.object({
      currency: z.string(),
      sales: z.number().int(),
      refunds: z.number().int(),
      grossMinor: z.number().int(),
    }),
  ),
});
export type Overview = z.infer<typeof overviewSchema>;

export const productFiguresSchema = z.object({
  productId: z.uuid(),
  title: z.string(),
  deleted: z.boolean(),
  ...countsShape,
  unlockRate: z.number().nullable(),
  revenue: z.array(revenueFigureSchema),
});
export type ProductFigures = z.infer<typeof productFiguresSchema>;

export const dailyPointSchema = z.object({
  day: z.iso.date(),
  ...countsShape,
  revenue: z.array(revenueFigureSchema),
});
export type DailyPoint = z.infer<typeof dailyPointSchema>;

export const productDailySchema = z.object({
  productId: z.uuid(),
  title: z.string(),
  series: z.array(dailyPointSchema),
});
export type ProductDaily = z.infer<typeof productDailySchema>;

/** GET /api/analytics/products: each of the seller's products with its figures. */
export const productFiguresListSchema = z.object({ products: z.array(productFiguresSchema) });
export type ProductFiguresList = z.infer<typeof productFiguresListSchema>;

import { errorBodySchema } from '@lockdrop/contracts';
import { z } from 'zod';
import type {
  DailyPoint,
  Metric,
  Overview,
  ProductFigures,
  RevenueFigure,
} from '../domain/analytics.js';

/** Periods are whole UTC days ending today; a year is the longest a dashboard asks for. */
export const daysQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });

const metricSchema = z.object({
  value: z.number().int(),
  previous: z.number().int(),
  /** Percent, one decimal; null when the previous period was zero. */
  changePercent: z.number().nullable(),
}) satisfies z.ZodType<Metric>;

/** Amounts in minor units of `currency`; currencies are never added together. */
const revenueSchema = z.object({
  currency: z.string(),
  grossMinor: z.number().int(),
  earningsMinor: z.number().int(),
  refundedMinor: z.number().int(),
  netMinor: z.number().int(),
}) satisfies z.ZodType<RevenueFigure>;

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
    revenueSchema.extend({
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
}) satisfies z.ZodType<Overview>;

export const productFiguresSchema = z.object({
  productId: z.uuid(),
  title: z.string(),
  deleted: z.boolean(),
  ...countsShape,
  unlockRate: z.number().nullable(),
  revenue: z.array(revenueSchema),
}) satisfies z.ZodType<ProductFigures>;

export const dailySchema = z.object({
  productId: z.uuid(),
  title: z.string(),
  series: z.array(
    z.object({
      day: z.iso.date(),
      ...countsShape,
      revenue: z.array(revenueSchema),
    }) satisfies z.ZodType<DailyPoint>,
  ),
});

export const errorResponses = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

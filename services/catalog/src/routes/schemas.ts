import { errorBodySchema } from '@lockdrop/contracts';
import { formatMoney, minorToDecimalString } from '@lockdrop/money';
import { z } from 'zod';
import type { PriceDisplay } from '../domain/currencies.js';
import { pricingSchema, productStatusSchema } from '../domain/product-input.js';
import type { Product } from '../domain/product.js';
import { fileKindSchema } from '@lockdrop/contracts';

/** A product as the API returns it; money as minor units plus its exact decimal and display text. */
export const productSchema = z.object({
  id: z.uuid(),
  ownerId: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  priceMinor: z.number().int(),
  currency: z.string(),
  /** Exact decimal in major units ("19.99"), for edit forms. */
  price: z.string(),
  /** Two-decimal display text ("$19.99"). */
  priceFormatted: z.string(),
  pricing: pricingSchema,
  status: productStatusSchema,
  fileId: z.uuid(),
  fileName: z.string(),
  fileSizeBytes: z.number().int(),
  fileKind: fileKindSchema,
  previewEnabled: z.boolean(),
  previewBlurPercentage: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  publishedAt: z.iso.datetime().nullable(),
});

export const priceDisplaySchema = z.object({
  amountMinor: z.number().int(),
  currency: z.string(),
  amount: z.string(),
  formatted: z.string(),
  converted: z.boolean(),
  warning: z.object({ code: z.literal('exchange_rate_missing'), message: z.string() }).nullable(),
}) satisfies z.ZodType<PriceDisplay>;

export const productDetailSchema = productSchema.extend({
  viewerIsOwner: z.boolean(),
  /** The price in the requested `?currency=` (or the product's own when none was asked). */
  display: priceDisplaySchema,
});

export const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  503: errorBodySchema,
};

export function toProductDto(product: Product): z.infer<typeof productSchema> {
  return {
    id: product.id,
    ownerId: product.ownerId,
    title: product.title,
    description: product.description,
    priceMinor: product.priceMinor,
    currency: product.currency,
    price: minorToDecimalString(product.priceMinor, product.currency),
    priceFormatted: formatMoney(product.priceMinor, product.currency),
    pricing: product.pricing,
    status: product.status,
    fileId: product.fileId,
    fileName: product.fileName,
    fileSizeBytes: product.fileSizeBytes,
    fileKind: product.fileKind,
    previewEnabled: product.previewEnabled,
    previewBlurPercentage: product.previewBlurPercentage,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
    publishedAt: product.publishedAt?.toISOString() ?? null,
  };
}

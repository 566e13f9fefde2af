import { z } from 'zod';
import { currencySchema } from '../shared.js';

const productSnapshot = z.object({
  productId: z.uuid(),
  ownerId: z.uuid(),
  title: z.string(),
  priceMinor: z.number().int().nonnegative(),
  currency: currencySchema,
  status: z.enum(['draft', 'published']),
  fileId: z.uuid().nullable(),
});

export const catalogEvents = {
  'product.created': { version: 1, schema: productSnapshot },
  'product.updated': { version: 1, schema: productSnapshot },
  'product.published': { version: 1, schema: productSnapshot },
  'product.unpublished': { version: 1, schema: productSnapshot },
  'product.viewed': {
    version: 1,
    schema: z.object({
      productId: z.uuid(),
      /** Opaque per-visitor id (hash), so views are counted once per visitor per day. */
      visitorId: z.string().min(1),
      day: z.iso.date(),
      referrer: z.string().nullable(),
    }),
  },
  'fx.rates.updated': {
    version: 1,
    schema: z.object({
      source: z.string(),
      rates: z.array(
        z.object({
          from: currencySchema,
          to: currencySchema,
          /** Decimal string: rates are not money and keep their full precision. */
          rate: z.string().regex(/^\d+(\.\d+)?$/),
        }),
      ),
    }),
  },
} as const;

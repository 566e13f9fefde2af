import { z } from 'zod';

/** Most views one batch carries; the gateway flushes sooner when it fills. */
export const MAX_VIEWS_PER_BATCH = 500;

export const gatewayEvents = {
  /**
   * Storefront reads the gateway answered from its cache, batched. Catalog records each view
   * once per product, visitor and UTC day and emits `product.viewed` for the first.
   */
  'storefront.products_viewed': {
    version: 1,
    schema: z.object({
      views: z
        .array(
          z.object({
            productId: z.uuid(),
            /** The gateway's keyed hash of the visitor (never an IP or the cookie itself). */
            visitorId: z.string().regex(/^[a-f0-9]{64}$/),
            referrer: z.string().max(500).nullable(),
            viewedAt: z.iso.datetime(),
            /** The request that read the product, for tracing. */
            requestId: z.string().max(128),
          }),
        )
        .min(1)
        .max(MAX_VIEWS_PER_BATCH),
    }),
  },
} as const;

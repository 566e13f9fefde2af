import { z } from 'zod';
import { publicBrandSchema } from '../api/brand.js';
import { pricingSchema } from '../api/products.js';
import { currencySchema, productStatusSchema } from '../shared.js';
import { auditedActionSchema } from './audited-action.js';

/** Everything other services keep of a product: payments prices checkouts, delivery renders previews. */
const productSnapshot = z.object({
  productId: z.uuid(),
  ownerId: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  priceMinor: z.number().int().positive(),
  currency: currencySchema,
  pricing: pricingSchema,
  /** Pay what you want: the least a buyer may pay (`priceMinor` is the suggestion); null when fixed. */
  minimumPriceMinor: z.number().int().nonnegative().nullable().optional(),
  status: productStatusSchema,
  fileId: z.uuid(),
  fileName: z.string(),
  fileSizeBytes: z.number().int().nonnegative(),
  /** Every file buyers get, in order; `fileId` is the preview source (absent in older events: that one file). */
  files: z
    .array(
      z.object({
        fileId: z.uuid(),
        fileName: z.string(),
        fileSizeBytes: z.number().int().nonnegative(),
      }),
    )
    .optional(),
  previewEnabled: z.boolean(),
  /** 0–100, step 5 (ARCHITECTURE §4: the one blur scale). */
  previewBlurPercentage: z.number().int().min(0).max(100).multipleOf(5),
  /** Delivery stamps each buyer's copy of a PDF file with their e-mail (absent in older events: off). */
  stampPdfs: z.boolean().optional(),
});

/**
 * The events that carry a product's whole snapshot. Consumers keep one durable per type rather
 * than `product.*`, which would also pull every `product.viewed` (one per page view) through
 * them only to be ignored.
 */
export const productSnapshotEventTypes = [
  'product.created',
  'product.updated',
  'product.published',
  'product.unpublished',
] as const;
export type ProductSnapshotEventType = (typeof productSnapshotEventTypes)[number];

export const catalogEvents = {
  'product.created': { version: 1, schema: productSnapshot },
  'product.updated': { version: 1, schema: productSnapshot },
  'product.published': { version: 1, schema: productSnapshot },
  'product.unpublished': { version: 1, schema: productSnapshot },
  'product.deleted': { version: 1, schema: z.object({ productId: z.uuid(), ownerId: z.uuid() }) },
  /**
   * A change gave the product files it did not have (new or replacing ones). Past buyers can
   * download them at once (delivery reads the snapshot); with `notifyBuyers` payments e-mails them.
   */
  'product.files_added': {
    version: 1,
    schema: z.object({
      productId: z.uuid(),
      ownerId: z.uuid(),
      productTitle: z.string(),
      files: z.array(z.object({ fileId: z.uuid(), fileName: z.string() })).min(1),
      notifyBuyers: z.boolean(),
    }),
  },
  /**
   * A seller saved their store's brand (handle, name, logo, accent colour). The gateway drops
   * kept product reads of that seller; payments keeps it for checkout pages and receipts.
   */
  'store.brand_updated': {
    version: 1,
    schema: z.object({
      sellerId: z.uuid(),
      brand: publicBrandSchema,
    }),
  },
  /**
   * A store's custom domain was added, verified, paused, resumed or removed (issue 28). The
   * gateway drops what it kept about that host, so a new state serves on the next request.
   */
  'store.domain_updated': {
    version: 1,
    schema: z.object({
      sellerId: z.uuid(),
      host: z.string(),
      status: z.enum(['pending', 'verified', 'paused', 'removed']),
    }),
  },
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
  /** The store's brand saved (by its owner or an admin), for identity's audit log. */
  'audit.catalog_action': { version: 1, schema: auditedActionSchema },
} as const;

import { z } from 'zod';
import { billingIntervalSchema, fileKindSchema, productStatusSchema } from '../shared.js';
import { publicBrandSchema } from './brand.js';

/** One-time, or a subscription billed monthly or yearly. */
export const pricingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('one_time') }),
  z.object({ type: z.literal('recurring'), interval: billingIntervalSchema }),
]);
export type Pricing = z.infer<typeof pricingSchema>;

const priceSchema = z.union([z.string().max(32), z.number()]);
/** 0–100 in steps of 5 (ARCHITECTURE §4: the one blur scale). */
const blurSchema = z.number().int().min(0).max(100).multipleOf(5);

/** A product holds at most this many files (the edit screen's list; buyers get every one). */
export const MAX_FILES_PER_PRODUCT = 20;

/** Sellers may tell their buyers about a product's new files once per this many minutes. */
export const BUYER_UPDATE_INTERVAL_MINUTES = 60;

/**
 * POST /api/products. Title, price and file are optional here on purpose: catalog answers their
 * absence with the spec's own messages ('Please fill in all required fields', 'Please upload a
 * file for your product'), not a generic validation failure.
 */
export const createProductSchema = z.object({
  title: z.string().max(200).optional(),
  description: z.string().max(5000).nullish(),
  price: priceSchema.nullish(),
  currency: z.string().max(8).optional(),
  fileId: z.string().max(64).nullish(),
  previewEnabled: z.boolean().default(false),
  previewBlurPercentage: blurSchema.default(50),
  pricing: pricingSchema.default({ type: 'one_time' }),
  /**
   * Pay what you want (one-time products): the least a buyer may pay, "0" allowed; `price` is
   * then the suggested amount. Absent or null: the price is fixed.
   */
  minimumPrice: priceSchema.nullish(),
  /** Stamp each buyer's copy of a PDF with "Licensed to <their e-mail>" on every page. */
  stampPdfs: z.boolean().default(false),
});
export type CreateProductInput = z.infer<typeof createProductSchema>;
/** What a client sends (defaults not yet applied). */
export type CreateProductRequest = z.input<typeof createProductSchema>;

/**
 * PATCH /api/products/:id: only what changes.
 * - `files` is the product's whole new file list, in order: it adds, replaces, reorders and
 *   removes in one call. `fileId` then names the list's preview source (default: the current
 *   one when it stays, else the first).
 * - `fileId` alone swaps the preview-source file for that upload, in the same place.
 */
export const updateProductSchema = z.object({
  title: z.string().max(200).optional(),
  description: z.string().max(5000).nullish(),
  price: priceSchema.nullish(),
  currency: z.string().max(8).optional(),
  fileId: z.string().max(64).nullish(),
  files: z
    .array(z.object({ fileId: z.string().max(64) }))
    .max(MAX_FILES_PER_PRODUCT)
    .optional(),
  /**
   * E-mail past buyers that the product has new files (with this change, which must add one).
   * Allowed once per BUYER_UPDATE_INTERVAL_MINUTES per product.
   */
  notifyBuyers: z.boolean().optional(),
  previewEnabled: z.boolean().optional(),
  previewBlurPercentage: blurSchema.optional(),
  pricing: pricingSchema.optional(),
  /** A decimal turns pay what you want on (or changes its minimum); null turns it off. */
  minimumPrice: priceSchema.nullish(),
  stampPdfs: z.boolean().optional(),
});
export type UpdateProductInput = z.infer<typeof updateProductSchema>;

/** One of a product's files, as sellers and buyers see it. */
export const productFileSchema = z.object({
  fileId: z.uuid(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  kind: fileKindSchema,
});
export type ProductFile = z.infer<typeof productFileSchema>;

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
  /** Set when the buyer chooses the amount: `price` is the suggestion, this the least accepted. */
  payWhatYouWant: z
    .object({ minimumMinor: z.number().int(), minimum: z.string(), minimumFormatted: z.string() })
    .nullable(),
  status: productStatusSchema,
  fileId: z.uuid(),
  fileName: z.string(),
  fileSizeBytes: z.number().int(),
  fileKind: fileKindSchema,
  /**
   * Every file buyers get, in the seller's order; the one named by `fileId` (and described by
   * `fileName`, `fileSizeBytes`, `fileKind`) is the preview source.
   */
  files: z.array(productFileSchema).min(1),
  /** When the seller last e-mailed past buyers about new files (null: never, or not the owner reading). */
  buyersToldAt: z.iso.datetime().nullable(),
  previewEnabled: z.boolean(),
  previewBlurPercentage: z.number().int(),
  /** Buyers get their own copy of a PDF file, stamped with their e-mail on every page. */
  stampPdfs: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  publishedAt: z.iso.datetime().nullable(),
});
export type Product = z.infer<typeof productSchema>;

/** GET /api/products/mine. */
export const productListSchema = z.object({ products: z.array(productSchema) });
export type ProductList = z.infer<typeof productListSchema>;

/** A price in the currency a visitor asked for. */
export const priceDisplaySchema = z.object({
  amountMinor: z.number().int(),
  currency: z.string(),
  /** Exact decimal in major units, e.g. "19.99". */
  amount: z.string(),
  formatted: z.string(),
  /** true when the amount was converted from the product's currency. */
  converted: z.boolean(),
  /** Set when the requested currency had no rate: the amount is shown unconverted (spec §8). */
  warning: z.object({ code: z.literal('exchange_rate_missing'), message: z.string() }).nullable(),
});
export type PriceDisplay = z.infer<typeof priceDisplaySchema>;

/** GET /api/products/:id. */
export const productDetailSchema = productSchema.extend({
  viewerIsOwner: z.boolean(),
  /** The price in the requested `?currency=` (or the product's own when none was asked). */
  display: priceDisplaySchema,
  /** Pay what you want: the minimum in the same currency as `display`. */
  displayMinimum: priceDisplaySchema.nullable(),
  /** The seller's brand when their plan includes branding; null shows the plain Lockdrop look. */
  brand: publicBrandSchema.nullable().default(null),
  /** Who sells it, as buyers see it: the store's name, else the seller's full name (issue 29). */
  sellerName: z.string().nullable().default(null),
  /**
   * The host of the seller's verified custom domain (Business, issue 28), or null: the product's
   * canonical and Open Graph addresses name it, on Lockdrop's own host too.
   */
  storeDomain: z.string().nullable().default(null),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

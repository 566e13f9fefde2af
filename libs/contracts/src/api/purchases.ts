import { z } from 'zod';
import { publicBrandSchema } from './brand.js';

/**
 * Purchases as payments serves them (`/api/purchases*`), shared by payments and the web so the
 * buyer's library, the success page and the seller's payments list read one shape.
 */

export const purchaseStatusSchema = z.enum(['paid', 'refunding', 'refunded']);

/** A purchase as its buyer sees it (spec §3 Purchase, §2 Purchases and Payment success). */
export const purchaseViewSchema = z.object({
  id: z.uuid(),
  productId: z.uuid(),
  productTitle: z.string(),
  fileName: z.string().nullable(),
  amountMinor: z.number().int(),
  currency: z.string(),
  status: purchaseStatusSchema,
  paymentReference: z.string(),
  createdAt: z.iso.datetime(),
  /** A sandbox or test-key payment: screens label it so nobody mistakes it for a real sale. */
  testMode: z.boolean(),
  /** Set when the purchase is a charge of this subscription; `renewal` when not its first. */
  subscriptionId: z.uuid().nullable(),
  renewal: z.boolean(),
  /** The seller's discount code used, and what it took off (in `currency`). */
  discount: z.object({ code: z.string(), amountOffMinor: z.number().int() }).nullable(),
});
export type PurchaseView = z.infer<typeof purchaseViewSchema>;

/** A sale as its seller sees it: the buyer and where the money went. */
export const saleViewSchema = purchaseViewSchema.extend({
  buyerEmail: z.string(),
  feePlatformMinor: z.number().int(),
  feeProcessorMinor: z.number().int(),
  sellerEarningsMinor: z.number().int(),
  refundedAt: z.iso.datetime().nullable(),
});
export type SaleView = z.infer<typeof saleViewSchema>;

/** `GET /api/purchases/by-reference`: where a checkout stands, for the success page. */
export const paymentResultSchema = z.object({
  status: z.enum(['pending', 'paid', 'failed', 'refunded']),
  txRef: z.string(),
  purchase: purchaseViewSchema.nullable(),
  /** The seller's brand (Pro and up): the result page shows it instead of Lockdrop's header. */
  brand: publicBrandSchema.nullable().default(null),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

/** POST /api/purchases/:id/refund: the sale as it stands (200 refunded, 202 refund under way). */
export const refundAnswerSchema = z.object({ purchase: saleViewSchema });
export type RefundAnswer = z.infer<typeof refundAnswerSchema>;

/**
 * GET /api/purchases/payment-mode: whether checkout here moves real money, and the processing
 * fee it counts when the provider reports none (PROCESSOR_FEE_BPS): the pricing pages and the
 * earnings calculator show this figure, so they cannot disagree with checkout.
 */
export const paymentModeSchema = z.object({
  testMode: z.boolean(),
  processorFeeBps: z.number().int().min(0).max(10_000),
});
export type PaymentMode = z.infer<typeof paymentModeSchema>;

/**
 * `GET|PUT /api/purchases/sale-emails`: whether the signed-in seller is e-mailed "You made a sale"
 * for each sale (on until turned off).
 */
export const saleEmailSettingsSchema = z.object({ saleEmails: z.boolean() });
export type SaleEmailSettings = z.infer<typeof saleEmailSettingsSchema>;

/** `GET /api/purchases`: the signed-in buyer's purchases. */
export const purchaseListSchema = z.object({ purchases: z.array(purchaseViewSchema) });
/** `GET /api/purchases/sales`: the signed-in seller's sales. */
export const saleListSchema = z.object({ sales: z.array(saleViewSchema) });

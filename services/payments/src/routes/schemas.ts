import { z } from 'zod';
import type { Purchase } from '../db/purchases.repo.js';

/** A purchase as its buyer sees it (spec §3 Purchase, §2 Purchases and Payment success). */
export const purchaseSchema = z.object({
  id: z.uuid(),
  productId: z.uuid(),
  productTitle: z.string(),
  fileName: z.string().nullable(),
  amountMinor: z.number().int(),
  currency: z.string(),
  status: z.enum(['paid', 'refunding', 'refunded']),
  paymentReference: z.string(),
  createdAt: z.iso.datetime(),
  /** A sandbox or test-key payment: screens label it so nobody mistakes it for a real sale. */
  testMode: z.boolean(),
  /** Set when the purchase is a charge of this subscription; `renewal` when not its first. */
  subscriptionId: z.uuid().nullable(),
  renewal: z.boolean(),
});

/** A sale as its seller sees it: the buyer and where the money went. */
export const saleSchema = purchaseSchema.extend({
  buyerEmail: z.string(),
  feePlatformMinor: z.number().int(),
  feeProcessorMinor: z.number().int(),
  sellerEarningsMinor: z.number().int(),
  refundedAt: z.iso.datetime().nullable(),
});

export const toPurchaseView = (purchase: Purchase): z.infer<typeof purchaseSchema> => ({
  id: purchase.id,
  productId: purchase.productId,
  productTitle: purchase.productTitle,
  fileName: purchase.fileName,
  amountMinor: purchase.amountMinor,
  currency: purchase.currency,
  status: purchase.status,
  paymentReference: purchase.txRef,
  createdAt: purchase.paidAt.toISOString(),
  testMode: purchase.testMode,
  subscriptionId: purchase.subscriptionId,
  renewal: purchase.renewal,
});

export const toSaleView = (purchase: Purchase): z.infer<typeof saleSchema> => ({
  ...toPurchaseView(purchase),
  buyerEmail: purchase.buyerEmail,
  feePlatformMinor: purchase.feePlatformMinor,
  feeProcessorMinor: purchase.feeProcessorMinor,
  sellerEarningsMinor: purchase.sellerEarningsMinor,
  refundedAt: purchase.refundedAt?.toISOString() ?? null,
});

export const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
    errorId: z.string().optional(),
  }),
});

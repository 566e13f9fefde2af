import { z } from 'zod';
import { currencySchema, productStatusSchema } from '../shared.js';

/**
 * The public shapes of Lockdrop's resources, as sellers' systems see them in outgoing webhooks:
 * camelCase like `/api/v1`, amounts in minor units beside their currency, and an `updatedAt`: a
 * receiver keeps the copy with the latest one, whatever order deliveries take.
 */
const timestamp = z.iso.datetime({ offset: true });

export const publicSaleSchema = z.object({
  object: z.literal('sale'),
  id: z.uuid(),
  productId: z.uuid(),
  productTitle: z.string().nullable(),
  buyerEmail: z.email(),
  /**
   * `pending` while the provider reports the payment under way (bank transfer, USSD) and `failed`
   * if it then fails; `paid` once the provider verified the payment; `refunded` or `disputed` (a
   * chargeback) after.
   */
  status: z.enum(['pending', 'failed', 'paid', 'refunded', 'disputed']),
  amountMinor: z.number().int().nonnegative(),
  currency: currencySchema,
  feePlatformMinor: z.number().int().nonnegative().nullable(),
  feeProcessorMinor: z.number().int().nonnegative().nullable(),
  sellerEarningsMinor: z.number().int().nonnegative().nullable(),
  subscriptionId: z.uuid().nullable(),
  paidAt: timestamp.nullable(),
  refundedAt: timestamp.nullable(),
  updatedAt: timestamp,
});
export type PublicSale = z.infer<typeof publicSaleSchema>;

export const publicSubscriptionSchema = z.object({
  object: z.literal('subscription'),
  id: z.uuid(),
  productId: z.uuid(),
  buyerEmail: z.email(),
  status: z.enum(['active', 'past_due', 'canceled', 'ended']),
  interval: z.string(),
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodEnd: timestamp,
  accessUntil: timestamp,
  updatedAt: timestamp,
});
export type PublicSubscription = z.infer<typeof publicSubscriptionSchema>;

export const publicProductSchema = z.object({
  object: z.literal('product'),
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  status: productStatusSchema,
  priceMinor: z.number().int().positive(),
  currency: currencySchema,
  pricingType: z.string(),
  files: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      sizeBytes: z.number().int().nonnegative().nullable(),
    }),
  ),
  updatedAt: timestamp,
});
export type PublicProduct = z.infer<typeof publicProductSchema>;

export const publicPayoutSchema = z.object({
  object: z.literal('payout'),
  id: z.uuid(),
  status: z.enum(['paid', 'failed']),
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
  providerReference: z.string().nullable(),
  failureReason: z.string().nullable(),
  updatedAt: timestamp,
});
export type PublicPayout = z.infer<typeof publicPayoutSchema>;

/**
 * `product.files_added`: the files a product gained (catalog's event names only those); the
 * product's whole state arrives in the `product.updated` of the same change.
 */
export const publicProductFilesSchema = z.object({
  object: z.literal('product_files'),
  productId: z.uuid(),
  productTitle: z.string(),
  files: z.array(z.object({ id: z.uuid(), name: z.string() })).min(1),
  updatedAt: timestamp,
});
export type PublicProductFiles = z.infer<typeof publicProductFilesSchema>;

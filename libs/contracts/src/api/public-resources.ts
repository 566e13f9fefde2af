import { z } from 'zod';
import { currencySchema, productStatusSchema } from '../shared.js';

/**
 * The public shapes of Lockdrop's resources, as sellers' systems see them in outgoing webhooks
 * (and, reused, in `/api/v1`). snake_case, amounts in minor units beside their currency, and an
 * `updated_at`: a receiver keeps the copy with the latest one, whatever order deliveries take.
 */
const timestamp = z.iso.datetime({ offset: true });

export const publicSaleSchema = z.object({
  object: z.literal('sale'),
  id: z.uuid(),
  product_id: z.uuid(),
  product_title: z.string().nullable(),
  buyer_email: z.email(),
  /** `paid` once the provider verified the payment; `refunded` or `disputed` (a chargeback) after. */
  status: z.enum(['pending', 'paid', 'refunded', 'disputed']),
  amount_minor: z.number().int().nonnegative(),
  currency: currencySchema,
  fee_platform_minor: z.number().int().nonnegative().nullable(),
  fee_processor_minor: z.number().int().nonnegative().nullable(),
  seller_earnings_minor: z.number().int().nonnegative().nullable(),
  subscription_id: z.uuid().nullable(),
  paid_at: timestamp.nullable(),
  refunded_at: timestamp.nullable(),
  updated_at: timestamp,
});
export type PublicSale = z.infer<typeof publicSaleSchema>;

export const publicSubscriptionSchema = z.object({
  object: z.literal('subscription'),
  id: z.uuid(),
  product_id: z.uuid(),
  buyer_email: z.email(),
  status: z.enum(['active', 'past_due', 'canceled', 'ended']),
  interval: z.string(),
  amount_minor: z.number().int().positive(),
  currency: currencySchema,
  cancel_at_period_end: z.boolean(),
  current_period_end: timestamp,
  access_until: timestamp,
  updated_at: timestamp,
});
export type PublicSubscription = z.infer<typeof publicSubscriptionSchema>;

export const publicProductSchema = z.object({
  object: z.literal('product'),
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  status: productStatusSchema,
  price_minor: z.number().int().positive(),
  currency: currencySchema,
  pricing_type: z.string(),
  files: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      size_bytes: z.number().int().nonnegative().nullable(),
    }),
  ),
  updated_at: timestamp,
});
export type PublicProduct = z.infer<typeof publicProductSchema>;

export const publicPayoutSchema = z.object({
  object: z.literal('payout'),
  id: z.uuid(),
  status: z.enum(['paid', 'failed']),
  amount_minor: z.number().int().positive(),
  currency: currencySchema,
  provider_reference: z.string().nullable(),
  failure_reason: z.string().nullable(),
  updated_at: timestamp,
});
export type PublicPayout = z.infer<typeof publicPayoutSchema>;

/**
 * `product.files_added`: the files a product gained (catalog's event names only those); the
 * product's whole state arrives in the `product.updated` of the same change.
 */
export const publicProductFilesSchema = z.object({
  object: z.literal('product_files'),
  product_id: z.uuid(),
  product_title: z.string(),
  files: z.array(z.object({ id: z.uuid(), name: z.string() })).min(1),
  updated_at: timestamp,
});
export type PublicProductFiles = z.infer<typeof publicProductFilesSchema>;

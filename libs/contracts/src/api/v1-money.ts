import { z } from 'zod';
import { discountCodeInputSchema, discountKindSchema, discountStateSchema } from './discounts.js';
import { payoutStatusSchema } from './payouts.js';
import { purchaseStatusSchema } from './purchases.js';
import { billingIntervalSchema, subscriptionStatusSchema } from './subscriptions.js';
import { v1PageOf, v1PageQuerySchema } from './v1.js';

/**
 * The public API's money resources (issue 27), served by payments: sales, subscriptions, discount
 * codes, payouts and balances. Snake case, amounts in integer minor units beside their currency,
 * `object` naming the resource; the answers of `Lockdrop-Version: 2026-11-26`. A key sees only
 * its seller's data of its own mode (`test_mode` says which).
 */

const isoDate = z.iso.datetime();
export const v1IdParamsSchema = z.object({ id: z.uuid() });

const createdFilters = {
  /** `created[gte]` / `created[lt]`: ISO date-times, the window the resource was created in. */
  'created[gte]': z.iso.datetime({ offset: true }).optional(),
  'created[lt]': z.iso.datetime({ offset: true }).optional(),
};

export const v1SaleSchema = z.object({
  object: z.literal('sale'),
  id: z.uuid(),
  product_id: z.uuid(),
  product_title: z.string(),
  file_name: z.string().nullable(),
  /** What the buyer paid, in minor units of `currency`. */
  amount: z.number().int(),
  currency: z.string(),
  status: purchaseStatusSchema,
  buyer_email: z.string(),
  fee_platform: z.number().int(),
  fee_processor: z.number().int(),
  /** `amount` less both fees: what the seller earns. */
  seller_earnings: z.number().int(),
  discount: z.object({ code: z.string(), amount_off: z.number().int() }).nullable(),
  subscription_id: z.uuid().nullable(),
  renewal: z.boolean(),
  payment_reference: z.string(),
  test_mode: z.boolean(),
  created_at: isoDate,
  refunded_at: isoDate.nullable(),
  updated_at: isoDate,
});
export type V1Sale = z.infer<typeof v1SaleSchema>;
export const v1SalePageSchema = v1PageOf(v1SaleSchema);

export const v1SaleListQuerySchema = v1PageQuerySchema.extend({
  product_id: z.uuid().optional(),
  status: purchaseStatusSchema.optional(),
  ...createdFilters,
});
export type V1SaleListQuery = z.infer<typeof v1SaleListQuerySchema>;

export const v1SubscriptionSchema = z.object({
  object: z.literal('subscription'),
  id: z.uuid(),
  product_id: z.uuid(),
  title: z.string(),
  buyer_email: z.string(),
  interval: billingIntervalSchema,
  amount: z.number().int(),
  currency: z.string(),
  status: subscriptionStatusSchema,
  cancel_at_period_end: z.boolean(),
  current_period_start: isoDate,
  current_period_end: isoDate,
  /** Until when the subscriber may download (period end, grace period). */
  access_until: isoDate,
  grace_until: isoDate.nullable(),
  ended_at: isoDate.nullable(),
  test_mode: z.boolean(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type V1Subscription = z.infer<typeof v1SubscriptionSchema>;
export const v1SubscriptionPageSchema = v1PageOf(v1SubscriptionSchema);
export const v1SubscriptionListQuerySchema = v1PageQuerySchema.extend({
  product_id: z.uuid().optional(),
  status: subscriptionStatusSchema.optional(),
  ...createdFilters,
});
export type V1SubscriptionListQuery = z.infer<typeof v1SubscriptionListQuerySchema>;

export const v1DiscountCodeSchema = z.object({
  object: z.literal('discount_code'),
  id: z.uuid(),
  code: z.string(),
  kind: discountKindSchema,
  percent_off: z.number().int().nullable(),
  /** kind fixed: minor units of `currency`. */
  amount_off: z.number().int().nullable(),
  currency: z.string().nullable(),
  /** Null: every product of the seller, now and later. */
  product_ids: z.array(z.uuid()).nullable(),
  starts_at: z.iso.datetime({ offset: true }).nullable(),
  ends_at: z.iso.datetime({ offset: true }).nullable(),
  max_uses: z.number().int().nullable(),
  max_uses_per_buyer: z.number().int().nullable(),
  active: z.boolean(),
  state: discountStateSchema,
  uses: z.number().int(),
  reserved: z.number().int(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type V1DiscountCode = z.infer<typeof v1DiscountCodeSchema>;
export const v1DiscountCodePageSchema = v1PageOf(v1DiscountCodeSchema);

const limitSchema = z.number().int().min(1).max(1_000_000).nullable();
/**
 * POST /api/v1/discount-codes: the dashboard's input in snake case; `amount_off` is in minor
 * units here (an API takes integers). Payments' discount service checks the rest in words.
 */
export const v1DiscountCodeCreateSchema = z.strictObject({
  code: discountCodeInputSchema.shape.code,
  kind: discountKindSchema,
  percent_off: z.number().int().nullable().default(null),
  amount_off: z.number().int().nullable().default(null),
  currency: z.string().max(8).nullable().default(null),
  product_ids: z.array(z.uuid()).max(200).nullable().default(null),
  starts_at: z.iso.datetime({ offset: true }).nullable().default(null),
  ends_at: z.iso.datetime({ offset: true }).nullable().default(null),
  max_uses: limitSchema.default(null),
  max_uses_per_buyer: limitSchema.default(null),
  active: z.boolean().default(true),
});
export type V1DiscountCodeCreate = z.infer<typeof v1DiscountCodeCreateSchema>;

/** PATCH /api/v1/discount-codes/:id: only the fields given change. */
export const v1DiscountCodeUpdateSchema = z.strictObject({
  code: discountCodeInputSchema.shape.code.optional(),
  kind: discountKindSchema.optional(),
  percent_off: z.number().int().nullable().optional(),
  amount_off: z.number().int().nullable().optional(),
  currency: z.string().max(8).nullable().optional(),
  product_ids: z.array(z.uuid()).max(200).nullable().optional(),
  starts_at: z.iso.datetime({ offset: true }).nullable().optional(),
  ends_at: z.iso.datetime({ offset: true }).nullable().optional(),
  max_uses: limitSchema.optional(),
  max_uses_per_buyer: limitSchema.optional(),
  active: z.boolean().optional(),
});
export type V1DiscountCodeUpdate = z.infer<typeof v1DiscountCodeUpdateSchema>;

export const v1DeletedSchema = z.object({
  object: z.string(),
  id: z.uuid(),
  deleted: z.literal(true),
});

export const v1PayoutSchema = z.object({
  object: z.literal('payout'),
  id: z.uuid(),
  status: payoutStatusSchema,
  /** What the destination receives, in minor units of `currency`. */
  amount: z.number().int(),
  currency: z.string(),
  /** The balance it came from; differs when it was converted at payout time. */
  source_amount: z.number().int(),
  source_currency: z.string(),
  fx_rate: z.string().nullable(),
  trigger: z.enum(['scheduled', 'withdraw']),
  destination_label: z.string(),
  failure_reason: z.string().nullable(),
  test_mode: z.boolean(),
  created_at: isoDate,
  completed_at: isoDate.nullable(),
});
export type V1Payout = z.infer<typeof v1PayoutSchema>;
export const v1PayoutPageSchema = v1PageOf(v1PayoutSchema);

/** GET /api/v1/balances: the payouts screen's figures, for the key's mode only. */
export const v1BalancesSchema = z.object({
  object: z.literal('balances'),
  test_mode: z.boolean(),
  balances: z.array(
    z.object({
      currency: z.string(),
      pending: z.number().int(),
      available: z.number().int(),
      in_transit: z.number().int(),
      paid_out: z.number().int(),
      minimum_payout: z.number().int(),
    }),
  ),
  next_payout_at: isoDate.nullable(),
  releases: z.array(
    z.object({ currency: z.string(), amount: z.number().int(), available_at: isoDate }),
  ),
});
export type V1Balances = z.infer<typeof v1BalancesSchema>;

import { z } from 'zod';
import { discountCodeInputSchema, discountCodeSchema, discountKindSchema } from './discounts.js';
import { payoutBalancesSchema, payoutSchema } from './payouts.js';
import { purchaseStatusSchema, saleViewSchema } from './purchases.js';
import { subscriptionStatusSchema, subscriptionViewSchema } from './subscriptions.js';
import { v1PageOf, v1PageQuerySchema, withExample } from './v1.js';

/**
 * The public API's money resources (issue 27), served by payments: sales, subscriptions, discount
 * codes, payouts and balances. The dashboard's shapes (camelCase, amounts in integer minor units
 * beside their currency: `amountMinor`, `sellerEarningsMinor`) with `object` naming the resource,
 * as every `/api/v1` resource is; the answers of `Lockdrop-Version: 2026-11-26`. A key sees only
 * its seller's data of its own mode (`testMode` says which). Every answer and body carries the
 * example the OpenAPI document shows (`withExample`).
 */

const isoDate = z.iso.datetime();
export const v1IdParamsSchema = z.object({ id: z.uuid() });

const createdFilters = {
  /** The window the resource was created in: from `createdFrom` (inclusive) to `createdBefore`. */
  createdFrom: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Created at or after this ISO date-time' }),
  createdBefore: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Created before this ISO date-time' }),
};

const EXAMPLE_TIME = '2026-11-26T09:30:00.000Z';
const EXAMPLE_LATER = '2026-11-26T10:05:12.000Z';
const EXAMPLE_PRODUCT_ID = '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';
const EXAMPLE_SALE_ID = '8d2f4e6a-1c3b-4a5d-9e7f-0a1b2c3d4e5f';
const EXAMPLE_SUBSCRIPTION_ID = 'c4b3a291-0e8d-4f7c-8b6a-5d4e3f2a1b0c';
const EXAMPLE_DISCOUNT_ID = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';

/** A sale as its seller sees it on the dashboard, and when it last changed (e.g. a refund). */
const saleSchema = saleViewSchema.extend({ object: z.literal('sale'), updatedAt: isoDate });
export type V1Sale = z.infer<typeof saleSchema>;

/** A ₦5,000.00 sale on a 2.5% plan with the 3.5% processing fee: 500000 = 12500 + 17500 + 470000. */
const saleExample: V1Sale = {
  object: 'sale',
  id: EXAMPLE_SALE_ID,
  productId: EXAMPLE_PRODUCT_ID,
  productTitle: 'Lagos street photography presets',
  fileName: 'presets-guide.pdf',
  amountMinor: 500000,
  currency: 'NGN',
  status: 'paid',
  paymentReference: 'ld_tx_01JDQ7X9M4K2V8N6P3R5T1W0YZ',
  createdAt: EXAMPLE_TIME,
  testMode: false,
  subscriptionId: null,
  renewal: false,
  discount: { code: 'LAUNCH20', amountOffMinor: 125000 },
  buyerEmail: 'ada@example.com',
  feePlatformMinor: 12500,
  feeProcessorMinor: 17500,
  sellerEarningsMinor: 470000,
  refundedAt: null,
  updatedAt: EXAMPLE_TIME,
};

export const v1SaleSchema = withExample(saleSchema, saleExample);

/** POST /api/v1/sales/:id/refund: the same sale once refunded. */
export const v1RefundedSaleSchema = withExample(saleSchema, {
  ...saleExample,
  status: 'refunded',
  refundedAt: EXAMPLE_LATER,
  updatedAt: EXAMPLE_LATER,
});

export const v1SalePageSchema = withExample(v1PageOf(v1SaleSchema), {
  object: 'list',
  data: [saleExample],
  has_more: false,
});

export const v1SaleListQuerySchema = v1PageQuerySchema.extend({
  productId: z.uuid().optional(),
  status: purchaseStatusSchema.optional(),
  ...createdFilters,
});
export type V1SaleListQuery = z.infer<typeof v1SaleListQuerySchema>;

/**
 * A subscription to one of the seller's products: the subscriber's view on the dashboard without
 * `nextRenewalAt`, with the subscriber and the period's start.
 */
const subscriptionSchema = subscriptionViewSchema.omit({ nextRenewalAt: true }).extend({
  object: z.literal('subscription'),
  productId: z.uuid(),
  buyerEmail: z.string(),
  currentPeriodStart: isoDate,
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type V1Subscription = z.infer<typeof subscriptionSchema>;

/** $9.00 a month. */
const subscriptionExample: V1Subscription = {
  object: 'subscription',
  id: EXAMPLE_SUBSCRIPTION_ID,
  productId: EXAMPLE_PRODUCT_ID,
  title: 'Monthly Lightroom preset drop',
  buyerEmail: 'bayo@example.com',
  interval: 'monthly',
  amountMinor: 900,
  currency: 'USD',
  status: 'active',
  cancelAtPeriodEnd: false,
  currentPeriodStart: EXAMPLE_TIME,
  currentPeriodEnd: '2026-12-26T09:30:00.000Z',
  accessUntil: '2026-12-26T09:30:00.000Z',
  graceUntil: null,
  endedAt: null,
  testMode: false,
  createdAt: '2026-09-26T09:30:00.000Z',
  updatedAt: EXAMPLE_TIME,
};

export const v1SubscriptionSchema = withExample(subscriptionSchema, subscriptionExample);

/** POST /api/v1/subscriptions/:id/cancel: it runs to the end of the paid period. */
export const v1CancelledSubscriptionSchema = withExample(subscriptionSchema, {
  ...subscriptionExample,
  cancelAtPeriodEnd: true,
  updatedAt: EXAMPLE_LATER,
});

export const v1SubscriptionPageSchema = withExample(v1PageOf(v1SubscriptionSchema), {
  object: 'list',
  data: [subscriptionExample],
  has_more: false,
});
export const v1SubscriptionListQuerySchema = v1PageQuerySchema.extend({
  productId: z.uuid().optional(),
  status: subscriptionStatusSchema.optional(),
  ...createdFilters,
});
export type V1SubscriptionListQuery = z.infer<typeof v1SubscriptionListQuerySchema>;

/**
 * A discount code as the dashboard lists it, without its display figures (`label`, the decimal
 * `amountOff`, `revenue`): the API speaks minor units only (`amountOffMinor`).
 */
const discountCodeResourceSchema = discountCodeSchema
  .omit({ amountOff: true, label: true, revenue: true })
  .extend({ object: z.literal('discount_code'), updatedAt: z.iso.datetime({ offset: true }) });
export type V1DiscountCode = z.infer<typeof discountCodeResourceSchema>;

const discountCodeExample: V1DiscountCode = {
  object: 'discount_code',
  id: EXAMPLE_DISCOUNT_ID,
  code: 'LAUNCH20',
  kind: 'percent',
  percentOff: 20,
  amountOffMinor: null,
  currency: null,
  productIds: null,
  startsAt: EXAMPLE_TIME,
  endsAt: '2026-12-31T23:59:59.000Z',
  maxUses: 100,
  maxUsesPerBuyer: 1,
  active: true,
  state: 'active',
  uses: 12,
  reserved: 1,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

/** $2.50 off one product priced in dollars. */
const fixedDiscountCodeExample: V1DiscountCode = {
  ...discountCodeExample,
  id: '7e8f9a0b-1c2d-4e3f-9a4b-5c6d7e8f9a0b',
  code: 'FIVE-OFF',
  kind: 'fixed',
  percentOff: null,
  amountOffMinor: 250,
  currency: 'USD',
  productIds: [EXAMPLE_PRODUCT_ID],
  startsAt: null,
  endsAt: null,
  maxUses: null,
  maxUsesPerBuyer: null,
  uses: 0,
  reserved: 0,
};

export const v1DiscountCodeSchema = withExample(discountCodeResourceSchema, discountCodeExample);

/** PATCH /api/v1/discount-codes/:id: the code as it now stands. */
export const v1UpdatedDiscountCodeSchema = withExample(discountCodeResourceSchema, {
  ...fixedDiscountCodeExample,
  amountOffMinor: 300,
  active: false,
  state: 'inactive',
  updatedAt: EXAMPLE_LATER,
});

export const v1DiscountCodePageSchema = withExample(v1PageOf(v1DiscountCodeSchema), {
  object: 'list',
  data: [fixedDiscountCodeExample, discountCodeExample],
  has_more: false,
});

const limitSchema = z.number().int().min(1).max(1_000_000).nullable();
/**
 * POST /api/v1/discount-codes: the dashboard's input, except that the amount off is
 * `amountOffMinor`, in minor units (an API takes integers), as the resource answers it. Strict:
 * an unknown field (the dashboard's decimal `amountOff`) is a 400, not a code worth 100 times more
 * or less. Payments' discount service checks the rest in words.
 */
export const v1DiscountCodeCreateSchema = withExample(
  z.strictObject({
    code: discountCodeInputSchema.shape.code,
    kind: discountKindSchema,
    percentOff: z.number().int().nullable().default(null),
    amountOffMinor: z.number().int().nullable().default(null),
    currency: z.string().max(8).nullable().default(null),
    productIds: z.array(z.uuid()).max(200).nullable().default(null),
    startsAt: z.iso.datetime({ offset: true }).nullable().default(null),
    endsAt: z.iso.datetime({ offset: true }).nullable().default(null),
    maxUses: limitSchema.default(null),
    maxUsesPerBuyer: limitSchema.default(null),
    active: z.boolean().default(true),
  }),
  {
    code: 'FIVE-OFF',
    kind: 'fixed',
    amountOffMinor: 250,
    currency: 'USD',
    productIds: [EXAMPLE_PRODUCT_ID],
  },
);
export type V1DiscountCodeCreate = z.infer<typeof v1DiscountCodeCreateSchema>;

/** The created code. */
export const v1CreatedDiscountCodeSchema = withExample(
  discountCodeResourceSchema,
  fixedDiscountCodeExample,
);

/** PATCH /api/v1/discount-codes/:id: only the fields given change. */
export const v1DiscountCodeUpdateSchema = withExample(
  z.strictObject({
    code: discountCodeInputSchema.shape.code.optional(),
    kind: discountKindSchema.optional(),
    percentOff: z.number().int().nullable().optional(),
    amountOffMinor: z.number().int().nullable().optional(),
    currency: z.string().max(8).nullable().optional(),
    productIds: z.array(z.uuid()).max(200).nullable().optional(),
    startsAt: z.iso.datetime({ offset: true }).nullable().optional(),
    endsAt: z.iso.datetime({ offset: true }).nullable().optional(),
    maxUses: limitSchema.optional(),
    maxUsesPerBuyer: limitSchema.optional(),
    active: z.boolean().optional(),
  }),
  { amountOffMinor: 300, active: false },
);
export type V1DiscountCodeUpdate = z.infer<typeof v1DiscountCodeUpdateSchema>;

export const v1DeletedSchema = withExample(
  z.object({ object: z.string(), id: z.uuid(), deleted: z.literal(true) }),
  { object: 'discount_code', id: EXAMPLE_DISCOUNT_ID, deleted: true },
);

/** A payout as the payouts screen lists it, and which mode's money it paid out. */
const payoutResourceSchema = payoutSchema.extend({
  object: z.literal('payout'),
  testMode: z.boolean(),
});
export type V1Payout = z.infer<typeof payoutResourceSchema>;

/** ₦4,700.00 sent to a Nigerian bank account; $60.79 converted to naira at payout time. */
const payoutExamples: V1Payout[] = [
  {
    object: 'payout',
    id: '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091',
    status: 'paid',
    amountMinor: 470000,
    currency: 'NGN',
    sourceAmountMinor: 470000,
    sourceCurrency: 'NGN',
    fxRate: null,
    trigger: 'scheduled',
    destinationLabel: 'Access Bank •••• 6789',
    failureReason: null,
    testMode: false,
    createdAt: EXAMPLE_TIME,
    completedAt: '2026-11-27T11:02:40.000Z',
  },
  {
    object: 'payout',
    id: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
    status: 'submitted',
    amountMinor: 9302390,
    currency: 'NGN',
    sourceAmountMinor: 6079,
    sourceCurrency: 'USD',
    fxRate: '1530.25',
    trigger: 'withdraw',
    destinationLabel: 'Access Bank •••• 6789',
    failureReason: null,
    testMode: false,
    createdAt: EXAMPLE_LATER,
    completedAt: null,
  },
];

export const v1PayoutSchema = withExample(payoutResourceSchema, payoutExamples[0]!);

export const v1PayoutPageSchema = withExample(v1PageOf(v1PayoutSchema), {
  object: 'list',
  data: [payoutExamples[1]!, payoutExamples[0]!],
  has_more: false,
});

/**
 * GET /api/v1/balances: the payouts screen's figures, for the key's mode only ("Withdraw now" is
 * the dashboard's, so not its `withdrawAvailableAt`).
 */
export const v1BalancesSchema = withExample(
  payoutBalancesSchema.omit({ withdrawAvailableAt: true }).extend({
    object: z.literal('balances'),
    testMode: z.boolean(),
  }),
  {
    object: 'balances',
    testMode: false,
    balances: [
      {
        currency: 'NGN',
        pendingMinor: 470000,
        availableMinor: 1250000,
        inTransitMinor: 0,
        paidOutMinor: 3200000,
        minimumPayoutMinor: 100000,
      },
      {
        currency: 'USD',
        pendingMinor: 1393,
        availableMinor: 0,
        inTransitMinor: 6079,
        paidOutMinor: 12450,
        minimumPayoutMinor: 1000,
      },
    ],
    nextPayoutAt: '2026-11-27T08:00:00.000Z',
    releases: [
      { currency: 'NGN', amountMinor: 470000, availableAt: '2026-11-27T09:30:00.000Z' },
      { currency: 'USD', amountMinor: 1393, availableAt: '2026-11-27T10:05:12.000Z' },
    ],
  },
);
export type V1Balances = z.infer<typeof v1BalancesSchema>;

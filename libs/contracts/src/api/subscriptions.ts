import { z } from 'zod';
import { billingIntervalSchema, currencySchema, planIdSchema } from '../shared.js';

/**
 * Recurring billing as payments serves it (`/api/subscriptions*`, `/api/billing/plan*`), shared by
 * payments and the web so both read one shape.
 */

export { billingIntervalSchema, type BillingInterval } from '../shared.js';

export const subscriptionStatusSchema = z.enum(['active', 'past_due', 'expired']);

const isoDate = z.iso.datetime({ offset: true });

/** One subscription as its subscriber sees it on /purchases (or /settings for a plan). */
export const subscriptionViewSchema = z.object({
  id: z.uuid(),
  productId: z.uuid().nullable(),
  title: z.string(),
  interval: billingIntervalSchema,
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
  status: subscriptionStatusSchema,
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodEnd: isoDate,
  /** When the next charge is due; null once cancelled or ended. */
  nextRenewalAt: isoDate.nullable(),
  /** Until when it may be used (period end, grace period); in the past once ended. */
  accessUntil: isoDate,
  /** Past due: the end of the grace period, by which the subscriber must pay. */
  graceUntil: isoDate.nullable(),
  endedAt: isoDate.nullable(),
  /** The sandbox's test controls (renew now, fail next renewal) apply. */
  testMode: z.boolean(),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const subscriptionListSchema = z.object({ subscriptions: z.array(subscriptionViewSchema) });

/** A seller's subscribers (not cancelled, not ended) and monthly recurring revenue, per currency. */
export const subscriberFiguresSchema = z.object({
  figures: z.array(
    z.object({
      currency: currencySchema,
      activeSubscribers: z.number().int().nonnegative(),
      monthlyRecurringMinor: z.number().int().nonnegative(),
    }),
  ),
});
export type SubscriberFigures = z.infer<typeof subscriberFiguresSchema>;

/** The signed-in seller's plan and its billing (`GET /api/billing/plan`). */
export const planBillingSchema = z.object({
  plan: planIdSchema,
  subscription: subscriptionViewSchema
    .extend({
      plan: planIdSchema,
      /** A downgrade or interval change that takes effect at period end. */
      pendingPlan: planIdSchema.nullable(),
      pendingInterval: billingIntervalSchema.nullable(),
      /** Annual plans: cancelling before this refunds the unused part (terms: within 30 days). */
      refundableUntil: isoDate.nullable(),
    })
    .nullable(),
});
export type PlanBilling = z.infer<typeof planBillingSchema>;

export const paidPlanIdSchema = planIdSchema.exclude(['free']);

/** `POST /api/billing/plan/change`: start paying for a plan, or change the one paid for. */
/** What a plan can be paid in (libs/plans PLAN_CURRENCIES): US dollars or naira. */
export const planCurrencySchema = z.enum(['USD', 'NGN']);
export type PlanCurrencyCode = z.infer<typeof planCurrencySchema>;

/**
 * `currency`: what a new plan is paid in (default USD). A change to a plan already paid for keeps
 * that subscription's currency; asking for another answers 409 `plan_currency_fixed`.
 */
export const planChangeRequestSchema = z.object({
  plan: planIdSchema,
  interval: billingIntervalSchema,
  currency: planCurrencySchema.optional(),
});
export type PlanChangeRequest = z.infer<typeof planChangeRequestSchema>;

/**
 * Either a checkout to pay (a new plan, or an upgrade charged now with the unused part of the
 * current period credited), or a change scheduled for the end of the period (a downgrade).
 */
export const planChangeResultSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('checkout'), link: z.url(), amountMinor: z.number().int() }),
  z.object({ outcome: z.literal('scheduled'), effectiveAt: isoDate }),
]);
export type PlanChangeResult = z.infer<typeof planChangeResultSchema>;

/** `POST /api/billing/plan/cancel`: at period end, or now with a pro-rata refund of an annual plan. */
export const planCancelRequestSchema = z.object({ refund: z.boolean().default(false) });

/**
 * `refundStatus`: `none` when nothing was refunded (a cancel at period end, or nothing left to
 * give back); `succeeded` when the provider confirmed the refund (the plan ended at `endsAt`);
 * `pending` (HTTP 202) when the refund is recorded and asked for but the provider's answer is
 * not in yet — the plan ends when it confirms (`endsAt` null), and asking again changes nothing.
 */
export const planCancelResultSchema = z.object({
  refundedMinor: z.number().int().nonnegative(),
  currency: currencySchema,
  endsAt: isoDate.nullable(),
  refundStatus: z.enum(['none', 'succeeded', 'pending']),
  /** While `pending`: the amount asked back. */
  pendingRefundMinor: z.number().int().positive().nullable(),
});
export type PlanCancelResult = z.infer<typeof planCancelResultSchema>;

import { z } from 'zod';
import { auditedActionSchema } from './audited-action.js';
import { billingIntervalSchema, currencySchema, planIdSchema } from '../shared.js';

const purchaseRef = {
  purchaseId: z.uuid(),
  productId: z.uuid(),
  sellerId: z.uuid(),
  buyerEmail: z.email(),
};

/**
 * A subscription as it stands after the change an event reports — each `subscription.*` event
 * carries the whole snapshot, so a consumer keeps the one with the highest `revision` and never
 * depends on the order events arrive in. `accessUntil` is payments' one answer to "until when may
 * the subscriber use what they pay for" (period end, plus the grace period after a failed
 * renewal, plus a day's leeway while a renewal is due); past it, access is over.
 */
export const subscriptionSnapshotSchema = z.object({
  subscriptionId: z.uuid(),
  /** A buyer's subscription to a seller's product, or a seller's own Lockdrop plan. */
  kind: z.enum(['product', 'plan']),
  productId: z.uuid().nullable(),
  /** The seller paid (kind product); null for plan subscriptions, which pay the platform. */
  sellerId: z.uuid().nullable(),
  /** The account paying for a plan (kind plan); null for product subscriptions. */
  userId: z.uuid().nullable(),
  /** kind plan: the plan paid for. */
  plan: planIdSchema.nullable(),
  buyerEmail: z.email(),
  interval: billingIntervalSchema,
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
  status: z.enum(['active', 'past_due', 'expired']),
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodEnd: z.iso.datetime({ offset: true }),
  accessUntil: z.iso.datetime({ offset: true }),
  revision: z.number().int().positive(),
  /**
   * A sandbox or test-key subscription (sellers' test-mode webhook endpoints hear of it, live ones
   * do not). Absent on events published before it was carried: those are taken as live.
   */
  testMode: z.boolean().optional(),
});
export type SubscriptionSnapshot = z.infer<typeof subscriptionSnapshotSchema>;

const payoutRef = {
  payoutId: z.uuid(),
  sellerId: z.uuid(),
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
};

/** Whether the money an event reports is test-mode money; absent on older events: live. */
const testModeFlag = { testMode: z.boolean().optional() };

/**
 * A product payment the provider reported, on its verify API, as neither paid nor failed (a bank
 * transfer or USSD payment the buyer has not completed). `purchaseId` is the id the sale will
 * have once paid (the checkout's id), so the later `purchase.paid` or `purchase.failed` names the
 * same sale. Once per provider transaction.
 */
const pendingPurchase = z.object({
  ...purchaseRef,
  checkoutId: z.uuid(),
  txRef: z.string(),
  productTitle: z.string(),
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
  testMode: z.boolean(),
});

/**
 * `purchase.paid` as first published: the fields after `paidAt` were added one by one while
 * producers and fixtures without them still existed, hence optional. Kept so events already in
 * the stream or in an outbox still parse; consumers only ever see v2.
 */
const purchasePaidV1 = z.object({
  ...purchaseRef,
  txRef: z.string(),
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
  feePlatformMinor: z.number().int().nonnegative(),
  feeProcessorMinor: z.number().int().nonnegative(),
  paidAt: z.iso.datetime({ offset: true }),
  // Optional so earlier producers and fixtures stay valid; payments always sets them.
  checkoutId: z.uuid().optional(),
  productTitle: z.string().optional(),
  /** The file the buyer is entitled to, as snapshotted at checkout (delivery's entitlement). */
  fileId: z.uuid().nullable().optional(),
  fileName: z.string().nullable().optional(),
  /** amountMinor − feePlatformMinor − feeProcessorMinor: what the seller is owed. */
  sellerEarningsMinor: z.number().int().nonnegative().optional(),
  provider: z.string().optional(),
  /**
   * sha256 (hex) of the secret in the receipt e-mail's link (`/receipt/<token>`): whoever
   * presents the token may open an account-free access session for this purchase.
   */
  receiptTokenHash: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  /**
   * sha256 (hex) of the `ld_buyer` cookie of the browser that started the checkout, which may
   * download without signing in; null when the checkout came without one.
   */
  buyerBrowserKeyHash: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .nullable()
    .optional(),
  /**
   * Set when this payment is a charge of a product subscription (the first or a renewal):
   * the entitlement lasts only while the subscription grants access (delivery keeps the
   * newest snapshot by revision, from this and the `subscription.*` events).
   */
  subscription: z
    .object({
      subscriptionId: z.uuid(),
      accessUntil: z.iso.datetime({ offset: true }),
      revision: z.number().int().positive(),
      status: z.enum(['active', 'past_due', 'expired']),
    })
    .nullable()
    .optional(),
});

const subscriptionAccessSchema = z.object({
  subscriptionId: z.uuid(),
  accessUntil: z.iso.datetime({ offset: true }),
  revision: z.number().int().positive(),
  status: z.enum(['active', 'past_due', 'expired']),
});

const sha256HexSchema = z.string().regex(/^[a-f0-9]{64}$/);

/** A sale as payments records it: every field always present, null where it does not apply. */
const purchasePaidV2 = z.object({
  ...purchaseRef,
  txRef: z.string(),
  /** Zero for a free claim (a 100% discount code, pay what you want at zero). */
  amountMinor: z.number().int().nonnegative(),
  currency: currencySchema,
  feePlatformMinor: z.number().int().nonnegative(),
  feeProcessorMinor: z.number().int().nonnegative(),
  /** amountMinor − feePlatformMinor − feeProcessorMinor: what the seller is owed. */
  sellerEarningsMinor: z.number().int().nonnegative(),
  paidAt: z.iso.datetime({ offset: true }),
  /** Null only for v1 events that predate it. */
  checkoutId: z.uuid().nullable(),
  productTitle: z.string().nullable(),
  /** The file the buyer is entitled to, as snapshotted at checkout (delivery's entitlement). */
  fileId: z.uuid().nullable(),
  fileName: z.string().nullable(),
  provider: z.string().nullable(),
  /**
   * sha256 (hex) of the secret in the receipt e-mail's link (`/receipt/<token>`): whoever
   * presents the token may open an account-free access session for this purchase.
   */
  receiptTokenHash: sha256HexSchema.nullable(),
  /**
   * sha256 (hex) of the `ld_buyer` cookie of the browser that started the checkout, which may
   * download without signing in; null when the checkout came without one.
   */
  buyerBrowserKeyHash: sha256HexSchema.nullable(),
  /**
   * Set when this payment is a charge of a product subscription (the first or a renewal):
   * the entitlement lasts only while the subscription grants access (delivery keeps the
   * newest snapshot by revision, from this and the `subscription.*` events).
   */
  subscription: subscriptionAccessSchema.nullable(),
  /**
   * A sandbox or test-key payment: no real money moved, so analytics keeps it out of revenue
   * (issue 29). Absent on events published before it was carried: those are taken as live.
   */
  testMode: z.boolean().optional(),
});

function purchasePaidFromV1(v1: z.infer<typeof purchasePaidV1>): z.infer<typeof purchasePaidV2> {
  return {
    ...v1,
    sellerEarningsMinor:
      v1.sellerEarningsMinor ?? v1.amountMinor - v1.feePlatformMinor - v1.feeProcessorMinor,
    checkoutId: v1.checkoutId ?? null,
    productTitle: v1.productTitle ?? null,
    fileId: v1.fileId ?? null,
    fileName: v1.fileName ?? null,
    provider: v1.provider ?? null,
    receiptTokenHash: v1.receiptTokenHash ?? null,
    buyerBrowserKeyHash: v1.buyerBrowserKeyHash ?? null,
    subscription: v1.subscription ?? null,
  };
}

export const paymentsEvents = {
  'checkout.started': {
    version: 1,
    schema: z.object({
      checkoutId: z.uuid(),
      txRef: z.string(),
      productId: z.uuid(),
      sellerId: z.uuid(),
      buyerEmail: z.email(),
      amountMinor: z.number().int().nonnegative(),
      currency: currencySchema,
    }),
  },
  'purchase.paid': {
    version: 2,
    schema: purchasePaidV2,
    upcasters: { 1: (data: unknown) => purchasePaidFromV1(purchasePaidV1.parse(data)) },
  },
  /** See `pendingPurchase`: no value is given; the buyer has nothing yet. */
  'purchase.pending': {
    version: 1,
    schema: pendingPurchase.extend({ pendingAt: z.iso.datetime({ offset: true }) }),
  },
  /**
   * A payment announced by `purchase.pending` ended without money: the provider's verify API
   * reported that transaction failed. Only follows a `purchase.pending` (a card declined at once
   * was never a sale anyone heard of).
   */
  'purchase.failed': {
    version: 1,
    schema: pendingPurchase.extend({ failedAt: z.iso.datetime({ offset: true }) }),
  },
  'purchase.refunded': {
    version: 1,
    schema: z.object({
      ...purchaseRef,
      ...testModeFlag,
      amountMinor: z.number().int().positive(),
      currency: currencySchema,
      refundedAt: z.iso.datetime({ offset: true }),
      txRef: z.string().optional(),
      fileId: z.uuid().nullable().optional(),
      /** Why the money went back: a refund, or a chargeback (absent in older events: a refund). */
      reason: z.enum(['refund', 'chargeback']).optional(),
    }),
  },
  /**
   * A refund attempt ended without moving money (the provider refused it, or downloads could not
   * be stopped first): the buyer keeps the file, so delivery lifts that attempt's suspension.
   */
  'purchase.refund_failed': {
    version: 1,
    schema: z.object({ ...purchaseRef, refundId: z.uuid(), reason: z.string() }),
  },
  /**
   * A sale reversed by a chargeback stands again: the provider reports the dispute won by the
   * seller, so the money is back and the buyer's access returns (lifting the revocation that the
   * chargeback's `purchase.refunded` made).
   */
  'purchase.reinstated': {
    version: 1,
    schema: z.object({
      ...purchaseRef,
      amountMinor: z.number().int().positive(),
      currency: currencySchema,
      reinstatedAt: z.iso.datetime({ offset: true }),
      reason: z.literal('dispute_won'),
      disputeId: z.string(),
      txRef: z.string().optional(),
      fileId: z.uuid().nullable().optional(),
    }),
  },
  /** The first payment of a subscription was verified (its purchase, if any, is a `purchase.paid`). */
  'subscription.started': { version: 1, schema: subscriptionSnapshotSchema },
  /** A renewal payment was verified: a new period began (and, for a product, a new `purchase.paid`). */
  'subscription.renewed': { version: 1, schema: subscriptionSnapshotSchema },
  /** A renewal failed: the subscriber keeps access through the grace period (`accessUntil`). */
  'subscription.past_due': { version: 1, schema: subscriptionSnapshotSchema },
  /** The subscriber cancelled at period end: access lasts until then, nothing more is charged. */
  'subscription.cancelled': { version: 1, schema: subscriptionSnapshotSchema },
  /** A cancellation at period end was taken back before the period ended. */
  'subscription.resumed': { version: 1, schema: subscriptionSnapshotSchema },
  /** The subscription ended (period over after a cancel, grace over, or refunded): access is revoked. */
  'subscription.expired': { version: 1, schema: subscriptionSnapshotSchema },
  /**
   * A seller's Lockdrop plan changed (paid upgrade, downgrade at period end, or back to free when
   * the plan subscription ended). Billing owns plans; identity mirrors them into the profile.
   */
  'plan.changed': {
    version: 1,
    schema: z.object({ userId: z.uuid(), plan: planIdSchema, previousPlan: planIdSchema }),
  },
  /**
   * A payout was created and its amount moved from available to in transit: the worker now
   * sends the transfer (asking payments for the destination with `payouts.instruction`).
   */
  'payout.requested': {
    version: 1,
    schema: z.object({
      ...payoutRef,
      method: z.enum(['bank', 'payoneer', 'wise']),
      /**
       * The payout carries test-mode earnings (sandbox or FLWSECK_TEST- purchases): the worker
       * pays it only through the sandbox payout provider, never a live one.
       */
      testMode: z.boolean().optional(),
    }),
  },
  'payout.paid': {
    version: 1,
    schema: z.object({ ...payoutRef, ...testModeFlag, providerReference: z.string() }),
  },
  'payout.failed': {
    version: 1,
    schema: z.object({ ...payoutRef, ...testModeFlag, reason: z.string() }),
  },
  /**
   * The provider notified us (a signed webhook) that a payout's transfer changed state. Not
   * trusted as the outcome: the worker fetches the transfer from the provider now instead of
   * waiting for its next poll.
   */
  'payout.transfer_reported': {
    version: 1,
    schema: z.object({ payoutId: z.uuid(), provider: z.string() }),
  },
  /** Refunds, payout withdrawals, payout destination and discount changes, for identity's audit log. */
  'audit.payments_action': { version: 1, schema: auditedActionSchema },
} as const;

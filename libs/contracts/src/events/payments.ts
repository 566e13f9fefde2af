import { z } from 'zod';
import { currencySchema } from '../shared.js';

const purchaseRef = {
  purchaseId: z.uuid(),
  productId: z.uuid(),
  sellerId: z.uuid(),
  buyerEmail: z.email(),
};

const subscriptionRef = z.object({
  subscriptionId: z.uuid(),
  productId: z.uuid(),
  buyerEmail: z.email(),
  interval: z.enum(['monthly', 'yearly']),
  currentPeriodEnd: z.iso.datetime({ offset: true }),
});

const payoutRef = {
  payoutId: z.uuid(),
  sellerId: z.uuid(),
  amountMinor: z.number().int().positive(),
  currency: currencySchema,
};

export const paymentsEvents = {
  'checkout.started': {
    version: 1,
    schema: z.object({
      checkoutId: z.uuid(),
      txRef: z.string(),
      productId: z.uuid(),
      sellerId: z.uuid(),
      buyerEmail: z.email(),
      amountMinor: z.number().int().positive(),
      currency: currencySchema,
    }),
  },
  'purchase.paid': {
    version: 1,
    schema: z.object({
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
    }),
  },
  'purchase.refunded': {
    version: 1,
    schema: z.object({
      ...purchaseRef,
      amountMinor: z.number().int().positive(),
      currency: currencySchema,
      refundedAt: z.iso.datetime({ offset: true }),
      txRef: z.string().optional(),
      fileId: z.uuid().nullable().optional(),
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
  'subscription.started': { version: 1, schema: subscriptionRef },
  'subscription.renewed': { version: 1, schema: subscriptionRef },
  'subscription.canceled': { version: 1, schema: subscriptionRef },
  /**
   * A payout was created and its amount moved from available to in transit: the worker now
   * sends the transfer (asking payments for the destination with `payouts.instruction`).
   */
  'payout.requested': {
    version: 1,
    schema: z.object({ ...payoutRef, method: z.enum(['bank', 'payoneer', 'wise']) }),
  },
  'payout.paid': { version: 1, schema: z.object({ ...payoutRef, providerReference: z.string() }) },
  'payout.failed': { version: 1, schema: z.object({ ...payoutRef, reason: z.string() }) },
  /**
   * The provider notified us (a signed webhook) that a payout's transfer changed state. Not
   * trusted as the outcome: the worker fetches the transfer from the provider now instead of
   * waiting for its next poll.
   */
  'payout.transfer_reported': {
    version: 1,
    schema: z.object({ payoutId: z.uuid(), provider: z.string() }),
  },
} as const;

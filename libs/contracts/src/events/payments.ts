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
    }),
  },
  'purchase.refunded': {
    version: 1,
    schema: z.object({
      ...purchaseRef,
      amountMinor: z.number().int().positive(),
      currency: currencySchema,
      refundedAt: z.iso.datetime({ offset: true }),
    }),
  },
  'subscription.started': { version: 1, schema: subscriptionRef },
  'subscription.renewed': { version: 1, schema: subscriptionRef },
  'subscription.canceled': { version: 1, schema: subscriptionRef },
  'payout.requested': { version: 1, schema: z.object(payoutRef) },
  'payout.paid': { version: 1, schema: z.object({ ...payoutRef, providerReference: z.string() }) },
  'payout.failed': { version: 1, schema: z.object({ ...payoutRef, reason: z.string() }) },
} as const;

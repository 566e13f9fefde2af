import { randomUUID } from 'node:crypto';
import { createEvent, type DomainEvent, type EventData, type EventType } from '@lockdrop/contracts';

/**
 * Event data as its producer sends it, for tests of the services that consume it. Every
 * factory returns a complete, valid current version; tests override what they are about.
 */

/** A published product as catalog snapshots it. */
export function productSnapshotData(
  overrides: Partial<EventData<'product.created'>> = {},
): EventData<'product.created'> {
  return {
    productId: randomUUID(),
    ownerId: randomUUID(),
    title: 'Sunset pack',
    description: null,
    priceMinor: 1500,
    currency: 'USD',
    pricing: { type: 'one_time' },
    status: 'published',
    fileId: randomUUID(),
    fileName: 'sunset.zip',
    fileSizeBytes: 1024,
    previewEnabled: true,
    previewBlurPercentage: 50,
    ...overrides,
  };
}

/**
 * A sale as payments announces it. Fees default to a free-plan seller's sandbox sale (5% + 3.5%)
 * of whatever amount is given, and the seller's earnings follow from them.
 */
export function purchasePaidData(
  overrides: Partial<EventData<'purchase.paid'>> = {},
): EventData<'purchase.paid'> {
  const amountMinor = overrides.amountMinor ?? 1500;
  const feePlatformMinor = overrides.feePlatformMinor ?? Math.round(amountMinor * 0.05);
  const feeProcessorMinor = overrides.feeProcessorMinor ?? Math.round(amountMinor * 0.035);
  return {
    purchaseId: randomUUID(),
    productId: randomUUID(),
    sellerId: randomUUID(),
    buyerEmail: 'buyer@example.com',
    txRef: `ld_${randomUUID()}`,
    amountMinor,
    currency: 'USD',
    feePlatformMinor,
    feeProcessorMinor,
    sellerEarningsMinor: amountMinor - feePlatformMinor - feeProcessorMinor,
    paidAt: new Date().toISOString(),
    checkoutId: randomUUID(),
    productTitle: 'Sunset pack',
    fileId: randomUUID(),
    fileName: 'sunset.zip',
    provider: 'sandbox',
    receiptTokenHash: null,
    buyerBrowserKeyHash: null,
    subscription: null,
    ...overrides,
  };
}

/**
 * A payment the provider reports pending (bank transfer, USSD), as payments announces it: its
 * `purchaseId` is the sale's id once paid (the checkout's).
 */
export function purchasePendingData(
  overrides: Partial<EventData<'purchase.pending'>> = {},
): EventData<'purchase.pending'> {
  const checkoutId = overrides.checkoutId ?? randomUUID();
  return {
    purchaseId: checkoutId,
    checkoutId,
    productId: randomUUID(),
    sellerId: randomUUID(),
    buyerEmail: 'buyer@example.com',
    txRef: `ld_${randomUUID()}`,
    productTitle: 'Sunset pack',
    amountMinor: 1500,
    currency: 'USD',
    testMode: false,
    pendingAt: new Date().toISOString(),
    ...overrides,
  };
}

/** The sale a pending payment becomes once the provider confirms it. */
export function purchasePaidAfterPending(
  pending: EventData<'purchase.pending'>,
  overrides: Partial<EventData<'purchase.paid'>> = {},
): EventData<'purchase.paid'> {
  return purchasePaidData({
    purchaseId: pending.purchaseId,
    checkoutId: pending.checkoutId,
    productId: pending.productId,
    sellerId: pending.sellerId,
    buyerEmail: pending.buyerEmail,
    txRef: pending.txRef,
    productTitle: pending.productTitle,
    amountMinor: pending.amountMinor,
    currency: pending.currency,
    testMode: pending.testMode,
    ...overrides,
  });
}

/** The full refund of a sale, as payments announces it. */
export function purchaseRefundedData(
  paid: EventData<'purchase.paid'>,
  overrides: Partial<EventData<'purchase.refunded'>> = {},
): EventData<'purchase.refunded'> {
  return {
    purchaseId: paid.purchaseId,
    productId: paid.productId,
    sellerId: paid.sellerId,
    buyerEmail: paid.buyerEmail,
    amountMinor: paid.amountMinor,
    currency: paid.currency,
    refundedAt: new Date().toISOString(),
    txRef: paid.txRef,
    fileId: paid.fileId,
    ...overrides,
  };
}

/** A whole event around `data`, with a test correlation id. */
export function testEvent<T extends EventType>(
  type: T,
  data: EventData<T>,
  options: { occurredAt?: Date; id?: string } = {},
): DomainEvent<T> {
  return createEvent(type, data, { correlationId: `test-${randomUUID()}`, ...options });
}

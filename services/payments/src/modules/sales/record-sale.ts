import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type EventData } from '@lockdrop/contracts';
import type { PoolClient } from '@lockdrop/db';
import { enqueueMail } from '@lockdrop/mailer';
import { splitSale } from '@lockdrop/plans';
import { setCheckoutStatus, type ProductCheckout } from './checkouts.repository.js';
import { postJournal } from '../ledger/index.js';
import { insertPurchase } from './purchases.repository.js';
import type { PaymentProvider, VerifiedTransaction } from '../../providers/types.js';
import { paymentJournal } from '../ledger/index.js';
import { findShownBrand } from '../read-models/index.js';
import { newReceiptToken, receiptEmail } from './receipts.js';

/** What recording a sale reads: the fee rate, the clock, and what the receipt says. */
export interface SaleDeps {
  processorFeeBps: number;
  publicUrl: string;
  refundWindowHours: number;
  now: () => Date;
  provider: Pick<PaymentProvider, 'testMode'>;
}

/**
 * Records a verified payment of a product as a sale: the purchase, its balanced payment journal,
 * `purchase.paid` (delivery's entitlement, analytics' revenue) and the receipt e-mail, in the
 * caller's transaction. One-time purchases and every charge of a product subscription come here,
 * so a renewal earns the seller exactly what a sale does (same fees, journals and payouts).
 */
export async function recordSale(
  tx: PoolClient,
  deps: SaleDeps,
  checkout: ProductCheckout,
  verified: VerifiedTransaction,
  subscription: EventData<'purchase.paid'>['subscription'] = null,
): Promise<{ purchaseId: string; processorFeeMinor: number }> {
  const split = splitSale({
    amountMinor: checkout.amountMinor,
    platformFeeMinor: checkout.platformFeeMinor,
    reportedProcessorFeeMinor: verified.processorFeeMinor,
    processorFeeBps: deps.processorFeeBps,
  });
  const purchaseId = randomUUID();
  const { productId, sellerId } = checkout;
  const paidAt = deps.now();
  const receipt = newReceiptToken();
  await insertPurchase(tx, {
    id: purchaseId,
    checkoutId: checkout.id,
    txRef: checkout.txRef,
    productId,
    sellerId,
    buyerEmail: checkout.buyerEmail,
    productTitle: checkout.productTitle,
    fileId: checkout.fileId,
    fileName: checkout.fileName,
    amountMinor: split.amountMinor,
    currency: checkout.currency,
    feePlatformMinor: split.platformFeeMinor,
    feeProcessorMinor: split.processorFeeMinor,
    sellerEarningsMinor: split.sellerEarningsMinor,
    // The provider the checkout was opened with ('free' for a claim that cost nothing).
    provider: checkout.provider,
    providerTransactionId: verified.transactionId,
    testMode: deps.provider.testMode,
    subscriptionId: subscription?.subscriptionId ?? null,
    renewal: checkout.renewsPeriodStart !== null,
    status: 'paid',
    paidAt,
    receiptTokenHash: receipt.tokenHash,
    discountCode: checkout.discountCode,
    discountMinor: checkout.discountMinor,
  });
  // A free claim moved no money: it has a purchase (the entitlement's source) and no journal.
  if (split.amountMinor > 0) {
    await postJournal(
      tx,
      { purchaseId },
      'payment',
      checkout.currency,
      paymentJournal(split, sellerId),
    );
  }
  await setCheckoutStatus(tx, checkout.id, 'paid', ['creating', 'open', 'failed', 'not_started']);
  await enqueueEvent(
    tx,
    createEvent(
      'purchase.paid',
      {
        purchaseId,
        productId,
        sellerId,
        buyerEmail: checkout.buyerEmail,
        txRef: checkout.txRef,
        amountMinor: split.amountMinor,
        currency: checkout.currency,
        feePlatformMinor: split.platformFeeMinor,
        feeProcessorMinor: split.processorFeeMinor,
        paidAt: paidAt.toISOString(),
        checkoutId: checkout.id,
        productTitle: checkout.productTitle,
        fileId: checkout.fileId,
        fileName: checkout.fileName,
        sellerEarningsMinor: split.sellerEarningsMinor,
        provider: checkout.provider,
        receiptTokenHash: receipt.tokenHash,
        buyerBrowserKeyHash: checkout.browserKeyHash,
        subscription,
      },
      { correlationId: checkout.correlationId },
    ),
  );
  const brand = await findShownBrand(tx, sellerId);
  await enqueueMail(
    tx,
    receiptEmail({
      to: checkout.buyerEmail,
      brand: brand && {
        name: brand.name,
        logoUrl: brand.logoUrl && `${deps.publicUrl}${brand.logoUrl}`,
        accentColour: brand.accentColour,
      },
      productTitle: checkout.productTitle,
      amountMinor: split.amountMinor,
      currency: checkout.currency,
      txRef: checkout.txRef,
      receiptUrl: `${deps.publicUrl}/receipt/${receipt.token}`,
      refundWindowHours: deps.refundWindowHours,
      testMode: deps.provider.testMode,
      discount: checkout.discountCode
        ? { code: checkout.discountCode, amountOffMinor: checkout.discountMinor }
        : null,
      subscription: checkout.billingInterval
        ? { interval: checkout.billingInterval, renewal: checkout.renewsPeriodStart !== null }
        : null,
    }),
  );
  return { purchaseId, processorFeeMinor: split.processorFeeMinor };
}

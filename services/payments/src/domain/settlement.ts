import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import { enqueueMail } from '@lockdrop/mailer';
import { findCheckoutByTxRef, setCheckoutStatus, type Checkout } from '../db/checkouts.repo.js';
import { postJournal } from '../db/ledger.repo.js';
import { markEventProcessed, recordMismatch } from '../db/provider-events.repo.js';
import { findPurchaseByCheckout, insertPurchase } from '../db/purchases.repo.js';
import type { PaymentProvider, VerifiedTransaction } from '../providers/types.js';
import { splitSale } from '@lockdrop/plans';
import { paymentJournal } from './fees.js';
import { newReceiptToken, receiptEmail } from './receipts.js';

export interface SettlementDeps {
  pool: Pool;
  provider: PaymentProvider;
  processorFeeBps: number;
  publicUrl: string;
  refundWindowHours: number;
  now: () => Date;
  /** Called after a commit that queued an e-mail. */
  onMailQueued: () => void;
}

export type SettlementOutcome =
  'paid' | 'already_paid' | 'pending' | 'failed' | 'mismatch' | 'checkout_missing';

/** What the verified transaction says that disagrees with the checkout (payments-contract §3). */
function mismatchesOf(checkout: Checkout, verified: VerifiedTransaction): string[] {
  const reasons: string[] = [];
  if (verified.txRef !== checkout.txRef) reasons.push('tx_ref');
  if (verified.currency !== checkout.currency) reasons.push('currency');
  if (verified.currency === checkout.currency && verified.amountMinor < checkout.amountMinor)
    reasons.push('amount');
  return reasons;
}

/**
 * Gives value for a transaction the provider's verify API reported — never for a webhook body.
 * Runs under a row lock on the checkout, so duplicate, replayed and concurrent notifications
 * serialise here: the first pays; the rest find the purchase and change nothing. The purchase,
 * its journal, `purchase.paid`, the receipt e-mail and the event's outcome commit together.
 */
export async function settleTransaction(
  deps: SettlementDeps,
  txRef: string,
  verified: VerifiedTransaction,
  providerEventId?: number,
): Promise<SettlementOutcome> {
  let mailQueued = false;
  const outcome = await withTransaction(deps.pool, async (tx): Promise<SettlementOutcome> => {
    const checkout = await findCheckoutByTxRef(tx, txRef, { forUpdate: true });
    if (!checkout) return 'checkout_missing';
    const done = async (result: SettlementOutcome) => {
      if (providerEventId !== undefined)
        await markEventProcessed(tx, providerEventId, result, deps.now());
      return result;
    };
    const mismatch = (reasons: string[]) =>
      recordMismatch(tx, {
        checkoutId: checkout.id,
        provider: deps.provider.name,
        transactionId: verified.transactionId,
        reasons,
        expected: {
          txRef: checkout.txRef,
          amountMinor: checkout.amountMinor,
          currency: checkout.currency,
        },
        reported: verified,
      });

    const existing = await findPurchaseByCheckout(tx, checkout.id);
    if (existing) {
      // A second successful charge on a paid checkout is money to hand back, not a second sale.
      if (
        verified.status === 'successful' &&
        verified.transactionId !== existing.providerTransactionId
      ) {
        await mismatch(['duplicate_payment']);
      }
      return done('already_paid');
    }
    if (verified.status === 'pending' || verified.status === 'other') return done('pending');
    if (verified.status === 'failed') {
      await setCheckoutStatus(tx, checkout.id, 'failed', ['creating', 'open']);
      return done('failed');
    }
    const reasons = mismatchesOf(checkout, verified);
    if (reasons.length > 0) {
      await mismatch(reasons);
      return done('mismatch');
    }
    if (verified.amountMinor > checkout.amountMinor) await mismatch(['overpaid']);

    await recordPaidPurchase(tx, deps, checkout, verified);
    mailQueued = true;
    return done('paid');
  });
  if (mailQueued) deps.onMailQueued();
  return outcome;
}

async function recordPaidPurchase(
  tx: PoolClient,
  deps: SettlementDeps,
  checkout: Checkout,
  verified: VerifiedTransaction,
): Promise<void> {
  const split = splitSale({
    amountMinor: checkout.amountMinor,
    platformFeeMinor: checkout.platformFeeMinor,
    reportedProcessorFeeMinor: verified.processorFeeMinor,
    processorFeeBps: deps.processorFeeBps,
  });
  const purchaseId = randomUUID();
  const paidAt = deps.now();
  const receipt = newReceiptToken();
  await insertPurchase(tx, {
    id: purchaseId,
    checkoutId: checkout.id,
    txRef: checkout.txRef,
    productId: checkout.productId,
    sellerId: checkout.sellerId,
    buyerEmail: checkout.buyerEmail,
    productTitle: checkout.productTitle,
    fileId: checkout.fileId,
    fileName: checkout.fileName,
    amountMinor: split.amountMinor,
    currency: checkout.currency,
    feePlatformMinor: split.platformFeeMinor,
    feeProcessorMinor: split.processorFeeMinor,
    sellerEarningsMinor: split.sellerEarningsMinor,
    provider: deps.provider.name,
    providerTransactionId: verified.transactionId,
    testMode: deps.provider.testMode,
    status: 'paid',
    paidAt,
    receiptTokenHash: receipt.tokenHash,
  });
  await postJournal(
    tx,
    { purchaseId },
    'payment',
    checkout.currency,
    paymentJournal(split, checkout.sellerId),
  );
  await setCheckoutStatus(tx, checkout.id, 'paid', ['creating', 'open', 'failed', 'not_started']);
  await enqueueEvent(
    tx,
    createEvent(
      'purchase.paid',
      {
        purchaseId,
        productId: checkout.productId,
        sellerId: checkout.sellerId,
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
        provider: deps.provider.name,
        receiptTokenHash: receipt.tokenHash,
        buyerBrowserKeyHash: checkout.browserKeyHash,
      },
      { correlationId: checkout.correlationId },
    ),
  );
  await enqueueMail(
    tx,
    receiptEmail({
      to: checkout.buyerEmail,
      productTitle: checkout.productTitle,
      amountMinor: split.amountMinor,
      currency: checkout.currency,
      txRef: checkout.txRef,
      receiptUrl: `${deps.publicUrl}/receipt/${receipt.token}`,
      refundWindowHours: deps.refundWindowHours,
      testMode: deps.provider.testMode,
    }),
  );
}

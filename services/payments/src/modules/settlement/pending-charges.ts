import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import type { PoolClient } from '@lockdrop/db';
import type { Checkout, ProductCheckout } from '../sales/index.js';
import type { PaymentProvider, VerifiedTransaction } from '../../providers/types.js';

/** What announcing a pending payment reads: which provider said so, in which mode, and when. */
export interface PendingChargeDeps {
  provider: Pick<PaymentProvider, 'name' | 'testMode'>;
  now: () => Date;
}

function pendingPurchaseData(checkout: ProductCheckout, deps: PendingChargeDeps) {
  return {
    // The sale's id once paid: recordSale gives a checkout's purchase the checkout's id.
    purchaseId: checkout.id,
    checkoutId: checkout.id,
    productId: checkout.productId,
    sellerId: checkout.sellerId,
    buyerEmail: checkout.buyerEmail,
    txRef: checkout.txRef,
    productTitle: checkout.productTitle,
    amountMinor: checkout.amountMinor,
    currency: checkout.currency,
    testMode: deps.provider.testMode,
  };
}

/**
 * A product payment the provider's verify API reports as pending (a bank transfer or USSD payment
 * under way) is announced as `purchase.pending` — once per provider transaction, however many
 * webhooks, polls and success-page reads report it. Only the verify answer counts, never a
 * webhook's body, and only a payment that would be accepted when completed (its tx_ref, currency
 * and amount match the checkout). Plans are the platform's, not a seller's sale: not announced.
 */
export async function announcePendingCharge(
  tx: PoolClient,
  deps: PendingChargeDeps,
  checkout: Checkout,
  verified: VerifiedTransaction,
): Promise<void> {
  if (checkout.kind !== 'product') return;
  const at = deps.now();
  const { rowCount } = await tx.query(
    `INSERT INTO pending_charges (provider, transaction_id, checkout_id, reported_at)
     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [deps.provider.name, verified.transactionId, checkout.id, at],
  );
  if (!rowCount) return;
  await enqueueEvent(
    tx,
    createEvent(
      'purchase.pending',
      { ...pendingPurchaseData(checkout, deps), pendingAt: at.toISOString() },
      { correlationId: checkout.correlationId },
    ),
  );
}

/**
 * A transaction announced as pending that the provider now reports failed: `purchase.failed`,
 * once, so whoever heard `sale.pending` hears how it ended. A decline never announced as pending
 * (a card refused at once) is nobody's news.
 */
export async function announceFailedCharge(
  tx: PoolClient,
  deps: PendingChargeDeps,
  checkout: Checkout,
  verified: VerifiedTransaction,
): Promise<void> {
  if (checkout.kind !== 'product') return;
  const at = deps.now();
  const { rowCount } = await tx.query(
    `UPDATE pending_charges SET failed_at = $3
     WHERE provider = $1 AND transaction_id = $2 AND failed_at IS NULL`,
    [deps.provider.name, verified.transactionId, at],
  );
  if (!rowCount) return;
  await enqueueEvent(
    tx,
    createEvent(
      'purchase.failed',
      { ...pendingPurchaseData(checkout, deps), failedAt: at.toISOString() },
      { correlationId: checkout.correlationId },
    ),
  );
}

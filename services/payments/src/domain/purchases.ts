import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool } from '@lockdrop/db';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type CommandRequest } from '@lockdrop/contracts';
import type { AuthUser } from '@lockdrop/auth';
import { AppError, errors } from '@lockdrop/http';
import {
  claimVerification,
  findCheckoutByTxRef,
  type CheckoutStatus,
} from '../db/checkouts.repo.js';
import { journalLines, postJournal } from '../db/ledger.repo.js';
import {
  findPurchase,
  findPurchaseByCheckout,
  listPaidPurchases,
  listSales,
  setPurchaseStatus,
  type Purchase,
} from '../db/purchases.repo.js';
import type { PaymentProvider } from '../providers/types.js';
import { refundJournal } from './fees.js';
import { settleTransaction, type SettlementDeps } from './settlement.js';

const notConfirmed = () =>
  errors.notFound('purchase_not_found', 'Purchase not found or payment not confirmed');

/** Spec §6: a purchase belongs to the signed-in user whose *verified* e-mail is the buyer e-mail. */
function ownsByEmail(user: AuthUser | null, buyerEmail: string): boolean {
  return Boolean(user?.emailVerified && user.email.toLowerCase() === buyerEmail.toLowerCase());
}

/**
 * `GET /api/purchases`. An unverified e-mail proves nothing about who reads that mailbox, so it
 * is refused outright (403 `email_not_verified`) rather than answered with an empty list that
 * would read as "No purchases yet".
 */
export async function listMyPurchases(pool: Pool, user: AuthUser): Promise<Purchase[]> {
  if (!user.emailVerified) {
    throw new AppError(
      'email_not_verified',
      403,
      'Verify your e-mail address to see your purchases',
    );
  }
  return listPaidPurchases(pool, user.email);
}

export async function listMySales(pool: Pool, user: AuthUser, limit: number): Promise<Purchase[]> {
  return listSales(pool, user.id, limit);
}

export interface PaymentResult {
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  txRef: string;
  purchase: Purchase | null;
}

const VERIFY_ON_READ_INTERVAL_SECONDS = 5;

const checkoutState = (status: CheckoutStatus): PaymentResult['status'] =>
  status === 'failed' || status === 'not_started' ? 'failed' : 'pending';

/**
 * The success page's question: did this payment go through? Answered for the buyer (verified
 * e-mail) or the browser that started the checkout; anyone else learns nothing. While no
 * webhook has arrived it asks the provider itself (at most every few seconds), so a lost
 * webhook still completes the purchase.
 */
export async function paymentByReference(
  deps: SettlementDeps & { logger: { warn(object: object, message: string): void } },
  input: { txRef: string; user: AuthUser | null; browserKeyHash: string | null },
): Promise<PaymentResult> {
  const checkout = await findCheckoutByTxRef(deps.pool, input.txRef);
  if (!checkout) throw notConfirmed();
  const ownsBrowser =
    input.browserKeyHash !== null && input.browserKeyHash === checkout.browserKeyHash;
  if (!ownsBrowser && !ownsByEmail(input.user, checkout.buyerEmail)) throw notConfirmed();

  if (
    checkout.status !== 'paid' &&
    (await claimVerification(deps.pool, checkout.id, deps.now(), VERIFY_ON_READ_INTERVAL_SECONDS))
  ) {
    try {
      const verified = await deps.provider.verifyByReference(checkout.txRef);
      if (verified) await settleTransaction(deps, checkout.txRef, verified);
    } catch (error) {
      deps.logger.warn(
        { txRef: checkout.txRef, err: (error as Error).message },
        'verify on read failed',
      );
    }
  }
  const purchase = await findPurchaseByCheckout(deps.pool, checkout.id);
  if (!purchase) {
    const current = await findCheckoutByTxRef(deps.pool, input.txRef);
    return { status: checkoutState(current!.status), txRef: checkout.txRef, purchase: null };
  }
  return {
    status: purchase.status === 'paid' ? 'paid' : 'refunded',
    txRef: checkout.txRef,
    purchase,
  };
}

export interface RefundDeps {
  pool: Pool;
  /** Asks delivery to stop this purchase's downloads and waits for it (throws when it cannot). */
  suspendAccess: (hold: CommandRequest<'access.suspend_for_refund'>) => Promise<unknown>;
  providers: ReadonlyMap<string, PaymentProvider>;
  refundWindowHours: number;
  /** Whether the provider gives its fee back on a refund (Flutterwave does not). */
  processorFeeRefunded: boolean;
  supportEmails: string[];
  now: () => Date;
  logger: { error(object: object, message: string): void };
}

function mayRefund(deps: RefundDeps, user: AuthUser, purchase: Purchase): boolean {
  if (user.id === purchase.sellerId) return true;
  return user.emailVerified && deps.supportEmails.includes(user.email.toLowerCase());
}

/**
 * Seller- or support-initiated refund within the refund window (terms: 24 hours). The purchase
 * is marked `refunding` first so a double click cannot refund twice. Delivery then stops every
 * download of it and says so before the provider is asked for the money: once this call
 * returns, no link of the purchase serves another byte. An attempt that moves no money ends in
 * `purchase.refund_failed`, which gives the buyer the file back. On success one transaction posts
 * the reversing journal, marks the purchase refunded and emits `purchase.refunded`.
 */
export async function refundPurchase(
  deps: RefundDeps,
  user: AuthUser,
  purchaseId: string,
  correlationId: string,
): Promise<Purchase> {
  const purchase = await withTransaction(deps.pool, async (tx) => {
    const found = await findPurchase(tx, purchaseId, { forUpdate: true });
    if (!found || !mayRefund(deps, user, found))
      throw errors.notFound('purchase_not_found', 'Purchase not found');
    if (found.status === 'refunded')
      throw errors.conflict('already_refunded', 'This purchase was already refunded');
    if (found.status === 'refunding')
      throw errors.conflict('refund_in_progress', 'A refund of this purchase is in progress');
    const windowEnds = found.paidAt.getTime() + deps.refundWindowHours * 3_600_000;
    if (deps.now().getTime() > windowEnds) {
      throw errors.conflict(
        'refund_window_closed',
        `Refunds are only possible within ${deps.refundWindowHours} hours of payment`,
      );
    }
    await setPurchaseStatus(tx, found.id, 'refunding');
    return found;
  });
  const refundId = randomUUID();

  try {
    await deps.suspendAccess({
      purchaseId: purchase.id,
      productId: purchase.productId,
      sellerId: purchase.sellerId,
      buyerEmail: purchase.buyerEmail,
      refundId,
    });
  } catch (error) {
    deps.logger.error({ err: error, purchaseId }, 'downloads could not be suspended for a refund');
    await abandonRefund(deps, purchase, refundId, 'downloads could not be stopped', correlationId);
    throw new AppError(
      'refund_unavailable',
      503,
      'Downloads of this purchase could not be stopped, so nothing was refunded; please try again',
    );
  }

  const provider = deps.providers.get(purchase.provider);
  let reference: string;
  try {
    if (!provider) throw new Error(`provider ${purchase.provider} is not configured`);
    ({ reference } = await provider.refund(
      purchase.providerTransactionId,
      purchase.amountMinor,
      purchase.currency,
    ));
  } catch (error) {
    deps.logger.error({ err: error, purchaseId }, 'provider refund failed');
    await abandonRefund(deps, purchase, refundId, 'the provider refused the refund', correlationId);
    throw new AppError(
      'refund_failed',
      502,
      'The payment provider could not refund this payment; please try again',
    );
  }

  const refundedAt = deps.now();
  await withTransaction(deps.pool, async (tx) => {
    const locked = await findPurchase(tx, purchase.id, { forUpdate: true });
    const payment = await journalLines(tx, purchase.id, 'payment');
    const journal = refundJournal(payment, {
      processorFeeReturned: deps.processorFeeRefunded,
      // Once released, the earnings sit in the seller's available balance: the refund comes
      // out of it (below zero if already paid out, recovered from the next payouts).
      sellerAccount: locked?.earningsReleasedAt ? 'seller_available' : 'seller_earnings',
    });
    await postJournal(tx, { purchaseId: purchase.id }, 'refund', purchase.currency, journal);
    await setPurchaseStatus(tx, purchase.id, 'refunded', {
      refundedAt,
      reference,
      refundedBy: user.id,
    });
    await enqueueEvent(
      tx,
      createEvent(
        'purchase.refunded',
        {
          purchaseId: purchase.id,
          productId: purchase.productId,
          sellerId: purchase.sellerId,
          buyerEmail: purchase.buyerEmail,
          amountMinor: purchase.amountMinor,
          currency: purchase.currency,
          refundedAt: refundedAt.toISOString(),
          txRef: purchase.txRef,
          fileId: purchase.fileId,
        },
        { correlationId },
      ),
    );
  });
  return { ...purchase, status: 'refunded', refundedAt };
}

/** A refund attempt that moved no money: the purchase is paid again and the buyer gets the file back. */
async function abandonRefund(
  deps: RefundDeps,
  purchase: Purchase,
  refundId: string,
  reason: string,
  correlationId: string,
): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    await setPurchaseStatus(tx, purchase.id, 'paid');
    await enqueueEvent(
      tx,
      createEvent(
        'purchase.refund_failed',
        {
          purchaseId: purchase.id,
          productId: purchase.productId,
          sellerId: purchase.sellerId,
          buyerEmail: purchase.buyerEmail,
          refundId,
          reason,
        },
        { correlationId },
      ),
    );
  });
}

import type { AuthUser } from '@lockdrop/auth';
import { errors } from '@lockdrop/http';
import {
  claimVerification,
  findCheckoutByTxRef,
  findPurchaseByCheckout,
  type CheckoutStatus,
  type Purchase,
} from '../sales/index.js';
import type { PublicBrand } from '@lockdrop/contracts';
import { findShownBrand } from '../read-models/index.js';
import { settleTransaction, type SettlementDeps } from './settlement.js';

export type PaymentStatusDeps = SettlementDeps & {
  logger: { warn(object: object, message: string): void };
};

const notConfirmed = () =>
  errors.notFound('purchase_not_found', 'Purchase not found or payment not confirmed');

/** Spec §6: a purchase belongs to the signed-in user whose *verified* e-mail is the buyer e-mail. */
function ownsByEmail(user: AuthUser | null, buyerEmail: string): boolean {
  return Boolean(user?.emailVerified && user.email.toLowerCase() === buyerEmail.toLowerCase());
}

export interface PaymentResult {
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  txRef: string;
  purchase: Purchase | null;
  /** The seller's brand for the result page (Pro and up); null shows Lockdrop's look. */
  brand: PublicBrand | null;
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
  deps: PaymentStatusDeps,
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
  const brand = checkout.sellerId ? await findShownBrand(deps.pool, checkout.sellerId) : null;
  if (!purchase) {
    const current = await findCheckoutByTxRef(deps.pool, input.txRef);
    return { status: checkoutState(current!.status), txRef: checkout.txRef, purchase: null, brand };
  }
  return {
    status: purchase.status === 'paid' ? 'paid' : 'refunded',
    txRef: checkout.txRef,
    purchase,
    brand,
  };
}

import type { AuthUser } from '@lockdrop/auth';
import type { Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import type { AccessKeys, Entitlement } from '../db/entitlements.repo.js';
import { receiptSessionOpens } from '../db/receipt-sessions.repo.js';
import { isUsable, subscriptionEnded } from './entitlements.js';

/**
 * Whoever asks for a purchase's file, by the three ways a buyer can prove it is theirs: a
 * signed-in account whose verified e-mail is the buyer e-mail, the browser that started the
 * checkout (`ld_buyer` cookie), or a session opened from the receipt e-mail (`ld_receipt`).
 */
export interface Claimant {
  user: AuthUser | null;
  /** sha256 hex of the `ld_buyer` cookie. */
  browserKeyHash: string | null;
  /** sha256 hex of the `ld_receipt` cookie. */
  receiptKeyHash: string | null;
}

export const accessErrors = {
  /** Spec §8: the toast the web shows for this code. */
  authRequired: () => new AppError('auth_required', 401, 'You must be logged in to download files'),
  emailNotVerified: () =>
    new AppError(
      'email_not_verified',
      403,
      'Verify your e-mail address to download what you bought with it',
    ),
  purchaseNotFound: () =>
    new AppError('purchase_not_found', 404, 'Purchase not found or payment not confirmed'),
  purchaseRefunded: () =>
    new AppError(
      'purchase_refunded',
      403,
      'This purchase was refunded, so its file can no longer be downloaded',
    ),
  subscriptionEnded: () =>
    new AppError(
      'subscription_ended',
      403,
      'Your subscription has ended, so its file can no longer be downloaded',
    ),
  /** Why a paid entitlement cannot be used now: a refund, or the end of its subscription. */
  unusable: (entitlement: Entitlement, now: Date) =>
    subscriptionEnded(entitlement, now)
      ? accessErrors.subscriptionEnded()
      : accessErrors.purchaseRefunded(),
};

export function accessKeysOf(claimant: Claimant): AccessKeys {
  const { user } = claimant;
  return {
    verifiedEmail: user?.emailVerified ? user.email.trim().toLowerCase() : null,
    browserKeyHash: claimant.browserKeyHash,
    receiptKeyHash: claimant.receiptKeyHash,
  };
}

async function opens(
  db: Queryable,
  entitlement: Entitlement,
  claimant: Claimant,
  now: Date,
): Promise<boolean> {
  const keys = accessKeysOf(claimant);
  if (keys.verifiedEmail !== null && keys.verifiedEmail === entitlement.buyerEmail) return true;
  if (keys.browserKeyHash !== null && keys.browserKeyHash === entitlement.buyerBrowserKeyHash)
    return true;
  return (
    keys.receiptKeyHash !== null &&
    receiptSessionOpens(db, keys.receiptKeyHash, entitlement.purchaseId, now)
  );
}

/**
 * Passes when the claimant may have the purchase's file now. Otherwise: an anonymous caller is
 * asked to sign in (401); a signed-in one learns nothing about purchases that are not theirs
 * (404), except that an unverified account holding the buyer e-mail is told to verify it.
 * The rightful buyer of a refunded purchase is told it was refunded.
 */
export async function authorize(
  db: Queryable,
  entitlement: Entitlement | null,
  claimant: Claimant,
  now: Date,
): Promise<Entitlement> {
  if (entitlement?.paidAt && (await opens(db, entitlement, claimant, now))) {
    if (!isUsable(entitlement, now)) throw accessErrors.unusable(entitlement, now);
    return entitlement;
  }
  const { user } = claimant;
  if (!user) throw accessErrors.authRequired();
  if (
    entitlement?.paidAt &&
    !user.emailVerified &&
    user.email.trim().toLowerCase() === entitlement.buyerEmail
  ) {
    throw accessErrors.emailNotVerified();
  }
  throw accessErrors.purchaseNotFound();
}

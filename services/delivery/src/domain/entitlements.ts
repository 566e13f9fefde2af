import type { Entitlement } from '../db/entitlements.repo.js';

/**
 * The one rule for whether a purchase's file may be handed out at `now`: paid, not refunded (or
 * charged back), not held while a refund is under way, and — for a charge of a subscription —
 * while the subscription grants access (payments' `accessUntil`: the period, its grace, its
 * leeway). `usableAt` in entitlements.repo.ts is its SQL twin.
 */
export function isUsable(entitlement: Entitlement | null, now: Date): entitlement is Entitlement {
  if (!entitlement?.paidAt || entitlement.revokedAt || entitlement.refundHold) return false;
  return (
    !entitlement.subscriptionId || Boolean(entitlement.accessUntil && entitlement.accessUntil > now)
  );
}

/** A paid entitlement that is unusable only because its subscription no longer grants access. */
export function subscriptionEnded(entitlement: Entitlement, now: Date): boolean {
  return (
    Boolean(entitlement.subscriptionId) &&
    !entitlement.revokedAt &&
    !entitlement.refundHold &&
    !isUsable(entitlement, now)
  );
}

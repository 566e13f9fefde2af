import type { Entitlement } from '../db/entitlements.repo.js';

/**
 * The one rule for whether a purchase's file may be handed out: paid, not refunded (or charged
 * back), and not held while a refund is under way. `USABLE` in entitlements.repo.ts is its SQL twin.
 */
export function isUsable(entitlement: Entitlement | null): entitlement is Entitlement {
  return Boolean(entitlement?.paidAt && !entitlement.revokedAt && !entitlement.refundHold);
}

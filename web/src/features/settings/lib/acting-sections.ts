import type { StoreRight } from '@lockdrop/contracts';

/** Settings cards that belong to a store rather than to the person signed in. */
export type StoreSection =
  'payouts' | 'plan' | 'brand' | 'domain' | 'webhooks' | 'saleEmails' | 'apiKeys';

/**
 * What a member acting for a store sees in Settings, from the rights the session lists (libs/auth's
 * role table; the servers enforce the same rights, this only hides what would be refused):
 * brand, custom domain, webhooks and API keys to an admin and an owner (issue 28: admin has everything but
 * ownership and the payout destination); payouts, the plan and the sale e-mails to an owner who
 * received the store by a transfer (`store:owner`). The team and its activity decide for
 * themselves.
 */
export function actingSections(rights: readonly StoreRight[]): Record<StoreSection, boolean> {
  const may = (right: StoreRight) => rights.includes(right);
  return {
    payouts: may('store:owner'),
    plan: may('store:owner'),
    brand: may('brand:manage'),
    domain: may('domain:manage'),
    webhooks: may('webhooks:manage'),
    // The "You made a sale" e-mails go to the owner's own inbox: theirs to switch.
    saleEmails: may('store:owner'),
    apiKeys: may('api-keys:manage'),
  };
}

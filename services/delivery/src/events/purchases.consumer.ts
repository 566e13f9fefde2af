import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import {
  applySubscriptionAccess,
  holdForRefund,
  grantEntitlement,
  releaseRefundHold,
  revokeEntitlement,
} from '../db/entitlements.repo.js';

/**
 * Entitlements from payments' events. The two consumers run independently, so a refund can be
 * handled before the payment it reverses; the repository makes either order end revoked.
 */
export async function subscribeToPurchaseEvents({
  bus,
  pool,
}: {
  bus: Bus;
  pool: Pool;
}): Promise<Subscription[]> {
  // Payments waits for this answer before it asks the provider for the money back.
  bus.serve('access.suspend_for_refund', async (hold) => {
    await holdForRefund(pool, hold);
    return { suspended: true };
  });
  return Promise.all([
    bus.subscribe({
      consumer: 'delivery.purchases-paid',
      filter: 'purchase.paid',
      pool,
      handler: (event, tx) => grantEntitlement(tx, event.data),
    }),
    bus.subscribe({
      consumer: 'delivery.purchases-refunded',
      filter: 'purchase.refunded',
      pool,
      handler: (event, tx) => revokeEntitlement(tx, event.data),
    }),
    bus.subscribe({
      consumer: 'delivery.subscriptions',
      filter: 'subscription.*',
      pool,
      handler: async (event, tx) => {
        const snapshot = event.data;
        // Plan subscriptions (a seller paying Lockdrop) unlock no file.
        if (snapshot.kind === 'product') await applySubscriptionAccess(tx, snapshot);
      },
    }),
    bus.subscribe({
      consumer: 'delivery.purchases-refund-failed',
      filter: 'purchase.refund_failed',
      pool,
      handler: (event, tx) => releaseRefundHold(tx, event.data),
    }),
  ]);
}

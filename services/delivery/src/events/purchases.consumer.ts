import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import {
  applySubscriptionAccess,
  holdForRefund,
  grantEntitlements,
  reinstateEntitlement,
  releaseRefundHold,
  revokeEntitlement,
} from '../db/entitlements.repo.js';
import { deleteUnreachableStampedCopies } from '../db/stamped-copies.repo.js';
import type { ObjectStorage } from '../storage/storage.js';

/**
 * Entitlements from payments' events. The two consumers run independently, so a refund can be
 * handled before the payment it reverses; the repository makes either order end revoked.
 */
export async function subscribeToPurchaseEvents({
  bus,
  pool,
  storage,
}: {
  bus: Bus;
  pool: Pool;
  storage: ObjectStorage;
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
      // A flash sale's payments arrive together: one statement grants a whole batch.
      batchHandler: (events, tx) =>
        grantEntitlements(
          tx,
          events.map((event) => event.data),
        ),
    }),
    bus.subscribe({
      consumer: 'delivery.purchases-refunded',
      filter: 'purchase.refunded',
      pool,
      handler: async (event, tx) => {
        await revokeEntitlement(tx, event.data);
        // A refunded buyer's stamped copies go too, unless another purchase of theirs reaches
        // the file. Removed before commit: a failed commit redelivers the event, which finds
        // the rows again (the buyer has no access meanwhile, so nothing asks for them).
        for (const key of await deleteUnreachableStampedCopies(tx, event.data.buyerEmail))
          await storage.delete(key);
      },
    }),
    bus.subscribe({
      consumer: 'delivery.subscriptions',
      filter: 'subscription.*',
      pool,
      handler: async (event, tx) => {
        const snapshot = event.data;
        // Plan subscriptions (a seller paying Lockdrop) unlock no file.
        if (snapshot.kind === 'product') await applySubscriptionAccess(tx, [snapshot]);
      },
    }),
    bus.subscribe({
      consumer: 'delivery.purchases-reinstated',
      filter: 'purchase.reinstated',
      pool,
      handler: (event, tx) => reinstateEntitlement(tx, event.data),
    }),
    bus.subscribe({
      consumer: 'delivery.purchases-refund-failed',
      filter: 'purchase.refund_failed',
      pool,
      handler: (event, tx) => releaseRefundHold(tx, event.data),
    }),
  ]);
}

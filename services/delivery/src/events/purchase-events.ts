import type { Bus, Subscription } from '@lockdrop/bus';
import type { DomainEvent } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import { recordPaidPurchase, revokeRefundedPurchase } from '../db/entitlements.repo.js';

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
  return Promise.all([
    bus.subscribe({
      consumer: 'delivery.purchases-paid',
      filter: 'purchase.paid',
      pool,
      handler: (event, tx) => recordPaidPurchase(tx, (event as DomainEvent<'purchase.paid'>).data),
    }),
    bus.subscribe({
      consumer: 'delivery.purchases-refunded',
      filter: 'purchase.refunded',
      pool,
      handler: (event, tx) =>
        revokeRefundedPurchase(tx, (event as DomainEvent<'purchase.refunded'>).data),
    }),
  ]);
}

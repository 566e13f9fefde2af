import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { applyPlanChange } from '../db/seller-plans.repo.js';

/** Billing's plan changes, so the next upload meets the new plan's quota and size limit. */
export function subscribeToPlanChanges({
  bus,
  pool,
}: {
  bus: Bus;
  pool: Pool;
}): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'delivery.plans',
    filter: 'plan.changed',
    pool,
    handler: async (event, tx) => {
      const { userId, plan } = event.data;
      await applyPlanChange(tx, userId, plan, event.occurredAt);
    },
  });
}

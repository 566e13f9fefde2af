import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { applyPlanChange } from '../db/brands.repo.js';

/** Billing's plan changes: a seller who leaves Pro loses the branded look at once, and regains it. */
export function subscribeToPlanChanges({
  bus,
  pool,
}: {
  bus: Bus;
  pool: Pool;
}): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'catalog.plans',
    filter: 'plan.changed',
    pool,
    handler: async (event, tx) => {
      if (event.type !== 'plan.changed') return;
      const { userId, plan } = event.data;
      await applyPlanChange(tx, userId, plan, event.occurredAt);
    },
  });
}

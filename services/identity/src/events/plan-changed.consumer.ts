import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import type { ProfileService } from '../domain/profiles.js';
import { applySeatLimit } from '../domain/teams.js';

/**
 * Billing owns plans; identity mirrors them into profiles (and so into access tokens), and a
 * store's seats follow its plan: members past a smaller plan's seats become read-only.
 */
export function subscribeToPlanChanges({
  bus,
  pool,
  profiles,
}: {
  bus: Bus;
  pool: Pool;
  profiles: ProfileService;
}): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'identity.plan-changed',
    filter: 'plan.changed',
    pool,
    handler: async (event, tx) => {
      if (event.type !== 'plan.changed') return;
      await profiles.applyPlanChange(event, tx);
      await applySeatLimit(tx, event.data.userId, event.correlationId);
    },
  });
}

import type { Bus, Subscription } from '@lockdrop/bus';
import { auditedActionSchema } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import type { TeamService } from '../domain/teams.js';

/**
 * Money actions taken in other services (refunds, withdrawals, payout destinations, discounts)
 * join the store's one audit log (issue 28), written once per event.
 */
export function subscribeToAuditedActions({
  bus,
  pool,
  teams,
}: {
  bus: Bus;
  pool: Pool;
  teams: Pick<TeamService, 'recordReported'>;
}): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'identity.audit',
    filter: 'audit.*',
    pool,
    handler: async (event, tx) => {
      await teams.recordReported(tx, event, auditedActionSchema.parse(event.data));
    },
  });
}

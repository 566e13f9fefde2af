import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import type { DomainService } from '../domain/domains.js';

/**
 * The worker's clock (`domains.recheck_due`, DOMAIN_RECHECK_CRON): every domain not looked at
 * since the firing is looked at again. A redelivered firing skips the domains already checked,
 * so a verified domain never counts one failure twice.
 */
export function subscribeToDomainRechecks(
  bus: Bus,
  pool: Pool,
  domains: DomainService,
): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'catalog.domain-rechecks',
    filter: 'domains.recheck_due',
    pool,
    async handler(event) {
      if (event.type !== 'domains.recheck_due') return;
      await domains.recheckDue(new Date(event.data.dueAt), event.correlationId);
    },
  });
}

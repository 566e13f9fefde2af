import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { runSubscriptionClock, type RenewalsDeps } from './subscription-clock.js';

/**
 * The worker's `subscriptions.due` tick (every minute) runs payments' subscription clock. The
 * clock reads the time itself and every step is idempotent, so a late or redelivered tick only
 * does what is due by then.
 */
export async function subscribeToSubscriptionsDue(
  bus: Bus,
  pool: Pool,
  deps: RenewalsDeps,
): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'payments.subscriptions-due',
    filter: 'subscriptions.due',
    pool,
    handler: async () => {
      const report = await runSubscriptionClock(deps);
      if (report.charged + report.pastDue + report.expired + report.reminded > 0)
        deps.logger.info(report, 'subscription clock ran');
    },
  });
}

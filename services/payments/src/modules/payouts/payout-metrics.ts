import type { Pool } from '@lockdrop/db';
import { Counter, Gauge, type Registry } from 'prom-client';
import { countUnknownPayouts } from './payouts.repository.js';

/**
 * What an operator must see on /metrics about money that leaves (issue 30): payouts whose outcome
 * the provider left open (money in transit until it answers), and `failed` reports refused for
 * want of the provider's own failed status. Alert on either above zero.
 */
export function payoutMetrics(
  registry: Registry,
  pool: Pool,
): { onFailedReportRefused: () => void } {
  new Gauge({
    name: 'payments_payouts_outcome_unknown',
    help: 'Payouts whose transfer the provider neither confirmed nor denied (need an operator: npm run payouts -- unknown)',
    registers: [registry],
    async collect() {
      try {
        this.set(await countUnknownPayouts(pool));
      } catch {
        // The database is down: /readyz says so; the gauge keeps its last value.
      }
    },
  });
  const refused = new Counter({
    name: 'payments_payout_failed_reports_refused_total',
    help: 'Failed payout reports ignored because they lacked the provider’s failed status for the transfer',
    registers: [registry],
  });
  return { onFailedReportRefused: () => refused.inc() };
}

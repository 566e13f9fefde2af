import type { Bus, Subscription } from '@lockdrop/bus';
import {
  payoutInstruction,
  recordTransferCompleted,
  recordTransferSubmitted,
  recordTransferUnknown,
  runPayouts,
  type PayoutDeps,
} from './payouts.js';

/**
 * Payments' side of the worker's payout jobs: scheduled runs, transfer progress, and the
 * destination for a transfer about to be sent. Payments alone moves payout state and posts
 * journals; the worker only reports what the provider said.
 */
export async function subscribeToPayoutEvents(bus: Bus, deps: PayoutDeps): Promise<Subscription[]> {
  bus.serve('payouts.instruction', ({ payoutId }) => payoutInstruction(deps, payoutId));
  return Promise.all([
    bus.subscribe({
      consumer: 'payments.payout-runs',
      filter: 'payout.run_due',
      pool: deps.pool,
      // Each seller commits on its own; a redelivered run finds the payouts it already made.
      handler: async (event) => {
        const { runId } = event.data;
        await runPayouts(deps, { runId, correlationId: event.correlationId });
      },
    }),
    bus.subscribe({
      consumer: 'payments.payout-submitted',
      filter: 'payout.transfer_submitted',
      pool: deps.pool,
      handler: (event, tx) => recordTransferSubmitted(tx, deps, event.data),
    }),
    bus.subscribe({
      consumer: 'payments.payout-unknown',
      filter: 'payout.transfer_unknown',
      pool: deps.pool,
      handler: (event, tx) => recordTransferUnknown(tx, deps, event.data),
    }),
    bus.subscribe({
      consumer: 'payments.payout-completed',
      filter: 'payout.transfer_completed',
      pool: deps.pool,
      // The e-mail it queues goes out on the mail relay's next poll.
      handler: async (event, tx) => {
        await recordTransferCompleted(tx, deps, event.data, event.correlationId);
      },
    }),
  ]);
}

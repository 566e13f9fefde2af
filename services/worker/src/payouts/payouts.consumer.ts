import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import type { Job, Queue } from 'bullmq';
import type { WorkerConfig } from '../config.js';
import type { SendPayoutData } from './queues.js';

/**
 * Payments' payout events turned into jobs: each requested payout becomes one job in `payouts`
 * (keyed by the payout id, so a redelivered event finds it there), and a provider's report
 * wakes the payout's waiting job instead of leaving it to the next poll.
 */
export function subscribeToPayoutEvents({
  bus,
  pool,
  config,
  payoutQueue,
}: {
  bus: Bus;
  pool: Pool;
  config: WorkerConfig;
  payoutQueue: Queue<SendPayoutData>;
}): Promise<Subscription[]> {
  return Promise.all([
    bus.subscribe({
      consumer: 'worker.payouts-requested',
      filter: 'payout.requested',
      pool,
      handler: async (event) => {
        const { payoutId, testMode } = event.data;
        await payoutQueue.add(
          'send',
          { payoutId, testMode: testMode === true },
          {
            jobId: payoutId,
            attempts: config.PAYOUT_JOB_ATTEMPTS,
            backoff: { type: 'exponential', delay: config.PAYOUT_BACKOFF_MS },
          },
        );
      },
    }),
    bus.subscribe({
      consumer: 'worker.payouts-reported',
      filter: 'payout.transfer_reported',
      pool,
      handler: async (event) => {
        const { payoutId } = event.data;
        const job: Job<SendPayoutData> | undefined = await payoutQueue.getJob(payoutId);
        if (job && (await job.isDelayed())) await job.promote();
      },
    }),
  ]);
}

import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from '../config.js';
import type { SendPayoutData } from './queues.js';

/**
 * Payments' payout events turned into jobs: each requested payout becomes one job in `payouts`
 * (keyed by the payout id, so a redelivered event finds it there), and a provider's report
 * wakes the payout's waiting job instead of leaving it to the next poll. With
 * PAYOUT_JOB_REPLICAS, the event is handled only once that many Redis replicas hold the job.
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
        if (config.PAYOUT_JOB_REPLICAS > 0) {
          // WAIT counts the replicas that hold every write this connection made so far. The
          // Redis backend's client is ioredis, whose commands bullmq's interface does not list.
          const client = (await payoutQueue.backend.client) as unknown as Pick<Redis, 'wait'>;
          const held = await client.wait(
            config.PAYOUT_JOB_REPLICAS,
            config.PAYOUT_JOB_REPLICA_TIMEOUT_MS,
          );
          // Not yet held: an outage to the bus (ETIMEDOUT), so the event is tried again for as
          // long as it lasts and never dead-lettered; the same job id finds the same job.
          if (held < config.PAYOUT_JOB_REPLICAS)
            throw Object.assign(
              new Error(
                `payout ${payoutId}'s job is held by ${held} of ${config.PAYOUT_JOB_REPLICAS} Redis replicas`,
              ),
              { code: 'ETIMEDOUT' },
            );
        }
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

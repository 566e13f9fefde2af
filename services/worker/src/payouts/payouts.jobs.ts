import { enqueueEvent, type Bus } from '@lockdrop/bus';
import { createSecretBox } from '@lockdrop/auth';
import {
  createEvent,
  openPayoutInstruction,
  type EventData,
  type EventType,
} from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { DelayedError } from 'bullmq';
import type { WorkerConfig } from '../config.js';
import { PAYOUT_RUNS_QUEUE, PAYOUTS_QUEUE, type SendPayoutData } from './queues.js';
import { subscribeToPayoutEvents } from './payouts.consumer.js';
import type { JobRuntime } from '../jobs/runtime.js';
import { createPayoutAdapters, type PayoutAdapters } from './providers/index.js';
import { createSandboxPayouts } from './providers/sandbox.js';
import {
  PayoutOutcomeUnknownError,
  PayoutRejectedError,
  type Transfer,
} from './providers/types.js';

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface PayoutJobsOptions {
  config: WorkerConfig;
  jobs: JobRuntime;
  pool: Pool;
  bus: Bus;
  logger: Logger;
  /** Tests substitute adapters that talk to local fakes; the default follows PAYOUT_PROVIDER. */
  adapters?: PayoutAdapters;
}

const MAX_POLL_MS = 3_600_000;

/**
 * The worker's half of payouts (ARCHITECTURE §3): the schedule that starts a run, one BullMQ job
 * per payout that sends it and follows it to the provider's final word, and the events that tell
 * payments. A payout job is keyed by the payout id and the provider is asked for a transfer with
 * that reference before one is created, so retries, crashes and a second worker never pay twice.
 */
export async function startPayoutJobs(
  options: PayoutJobsOptions,
): Promise<{ stop(): Promise<void> }> {
  const { config, jobs, pool, bus, logger } = options;
  const adapters = options.adapters ?? createPayoutAdapters(config, pool);
  const sandbox =
    adapters.sandbox ?? createSandboxPayouts({ pool, delayMs: config.SANDBOX_PAYOUT_DELAY_MS });
  const payoutQueue = jobs.queue<SendPayoutData>(PAYOUTS_QUEUE);
  const instructionBox = createSecretBox(config.PAYOUT_INSTRUCTION_KEYS);

  const emit = <T extends EventType>(type: T, data: EventData<T>, correlationId: string) =>
    withTransaction(pool, (tx) => enqueueEvent(tx, createEvent(type, data, { correlationId })));

  jobs.process<Record<string, never>>(PAYOUT_RUNS_QUEUE, async (job) => {
    // The scheduler gives each firing its own job id: one run id per firing, however often the
    // job is retried (payments makes one payout per seller and currency per run id).
    const runId = `scheduled:${job.id}`;
    await emit('payout.run_due', { runId, dueAt: new Date(job.timestamp).toISOString() }, runId);
    logger.info({ runId }, 'payout run due');
  });
  await jobs.schedule(
    PAYOUT_RUNS_QUEUE,
    'payout-run',
    { pattern: config.PAYOUT_CRON, tz: config.PAYOUT_TZ },
    { name: 'run', data: {} },
  );

  jobs.process<SendPayoutData>(PAYOUTS_QUEUE, async (job, token) => {
    const { payoutId } = job.data;
    const reply = await bus.request(
      'payouts.instruction',
      { payoutId },
      { timeoutMs: config.INSTRUCTION_TIMEOUT_MS },
    );
    if (!reply.send) return `not sent: payout is ${reply.status}`;
    // Opened for the payout this job sends, so an answer about another payout sends nothing;
    // one that does not open fails the job (retried, then left failed for an operator).
    const instruction = openPayoutInstruction(instructionBox, payoutId, reply);
    // Test-mode earnings go only through the sandbox (issue 30): never a live provider.
    const adapter = job.data.testMode ? sandbox : adapters.for(instruction.destination.method);
    if (job.data.testMode && adapter.name !== 'sandbox')
      throw new Error(`refusing to send test-mode payout ${payoutId} through ${adapter.name}`);
    const sameProvider = !job.data.provider || job.data.provider === adapter.name;
    // The provider's id for this payout's transfer, ours or the one payments recorded: a
    // lookup by id cannot miss the way a list search can.
    const knownId = sameProvider
      ? (job.data.providerTransferId ?? instruction.providerTransferId ?? undefined)
      : undefined;

    /** Look again later with the poll's backoff (no timers in memory: the job waits delayed). */
    const lookAgainLater = async (): Promise<never> => {
      const polls = (job.data.polls ?? 0) + 1;
      await job.updateData({ ...job.data, polls });
      const firstPoll = Math.min(
        adapter.pollAfterMs ?? config.PAYOUT_POLL_MS,
        config.PAYOUT_POLL_MS,
      );
      const delay = Math.min(firstPoll * 2 ** Math.min(polls - 1, 20), MAX_POLL_MS);
      await job.moveToDelayed(Date.now() + delay, token);
      throw new DelayedError();
    };
    /**
     * Nothing is concluded from silence (ARCHITECTURE §3a): the payout stays in transit, payments
     * flags it for an operator, and the job keeps asking the provider about this reference.
     */
    const outcomeUnknown = async (reason: string): Promise<never> => {
      logger.error(
        { payoutId, provider: adapter.name, reason },
        'payout outcome unknown: the money stays in transit until the provider answers; needs an operator if this persists',
      );
      if (!job.data.unknown) {
        await emit(
          'payout.transfer_unknown',
          { payoutId, provider: adapter.name, providerTransferId: knownId ?? null, reason },
          payoutId,
        );
        await job.updateData({ ...job.data, provider: adapter.name, unknown: true });
      }
      return lookAgainLater();
    };

    let transfer: Transfer | null = knownId
      ? await adapter.get(knownId, payoutId)
      : await adapter.findByReference(payoutId);
    if (!transfer) {
      // Once unknown, only the provider's own record of this reference settles it: never a
      // second create, whose refusal would say nothing about the first.
      if (job.data.unknown) return lookAgainLater();
      const sentBefore = job.data.createSent === true;
      if (!sentBefore) await job.updateData({ ...job.data, createSent: true });
      try {
        transfer = await adapter.create(instruction);
      } catch (error) {
        if (error instanceof PayoutOutcomeUnknownError) return outcomeUnknown(error.message);
        if (!(error instanceof PayoutRejectedError)) throw error;
        // An earlier create may have been acted on (its answer never came): this refusal is
        // about the new request, not that one.
        if (sentBefore)
          return outcomeUnknown(
            `refused after an earlier attempt whose answer was lost: ${error.message}`,
          );
        await emit(
          'payout.transfer_completed',
          {
            payoutId,
            provider: adapter.name,
            providerTransferId: null,
            status: 'failed',
            reason: error.message,
          },
          payoutId,
        );
        return 'refused by the provider';
      }
    }
    if (job.data.providerTransferId !== transfer.providerTransferId) {
      await emit(
        'payout.transfer_submitted',
        { payoutId, provider: adapter.name, providerTransferId: transfer.providerTransferId },
        payoutId,
      );
      await job.updateData({
        ...job.data,
        provider: adapter.name,
        providerTransferId: transfer.providerTransferId,
      });
    }
    if (transfer.status === 'pending') return lookAgainLater();
    await emit(
      'payout.transfer_completed',
      {
        payoutId,
        provider: adapter.name,
        providerTransferId: transfer.providerTransferId,
        status: transfer.status,
        reason: transfer.failureReason,
        // Read from the provider about this very transfer: payments' condition for a refund
        // of the money to available.
        providerStatus: transfer.status,
      },
      payoutId,
    );
    return transfer.status;
  });

  const subscriptions = await subscribeToPayoutEvents({ bus, pool, config, payoutQueue });

  return {
    async stop() {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    },
  };
}

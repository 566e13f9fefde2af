import type { SecretBox } from '@lockdrop/auth';
import { withTransaction, type Pool } from '@lockdrop/db';
import { enqueueMail, renderEmail } from '@lockdrop/mailer';
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { WorkerConfig } from '../config.js';
import type { JobRuntime } from '../jobs/runtime.js';
import { sendWebhook, type AttemptResult } from './send.js';
import { endpointSealContext, webhookHeaders } from './signing.js';
import {
  deliveryById,
  earlierPending,
  endpointById,
  nextPending,
  recordAttempt,
  updateEndpoint,
  type DeliveryRow,
  type EndpointRow,
} from './webhooks.repository.js';

export const WEBHOOK_DELIVERIES_QUEUE = 'webhook-deliveries';

export interface DeliveryJobData {
  deliveryId: string;
  /** A seller's redelivery or test event: one attempt now, and no endpoint is disabled for it. */
  manual?: boolean;
}

/**
 * A job may run before the transaction that inserted its delivery commits (the consumer adds
 * it inside that transaction): a missing row is looked for again for this long, after which
 * the transaction is taken as rolled back (its event comes again, with a new delivery).
 */
const UNCOMMITTED_GRACE_MS = 60_000;

/** One BullMQ job per run of a delivery: the first, then one per redelivery. */
export function deliveryJobId(delivery: Pick<DeliveryRow, 'id' | 'redeliveries'>): string {
  return delivery.redeliveries === 0 ? delivery.id : `${delivery.id}.r${delivery.redeliveries}`;
}

export interface DeliveryQueue {
  enqueue(delivery: DeliveryRow, options?: { manual?: boolean }): Promise<void>;
}

export function deliveryQueue(
  queue: Queue<DeliveryJobData>,
  config: Pick<WorkerConfig, 'WEBHOOK_ATTEMPTS' | 'WEBHOOK_BACKOFF_MS'>,
): DeliveryQueue {
  return {
    async enqueue(delivery, { manual = false } = {}) {
      await queue.add(
        'deliver',
        { deliveryId: delivery.id, manual },
        {
          jobId: deliveryJobId(delivery),
          attempts: manual ? 1 : config.WEBHOOK_ATTEMPTS,
          backoff: { type: 'exponential', delay: config.WEBHOOK_BACKOFF_MS },
        },
      );
    },
  };
}

/** The secrets that sign now: the current one, and the previous one during its 24 h overlap. */
export function signingSecrets(endpoint: EndpointRow, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(endpoint.secret_sealed, endpointSealContext(endpoint))];
  if (
    endpoint.previous_secret_sealed &&
    endpoint.previous_secret_expires_at &&
    endpoint.previous_secret_expires_at > now
  )
    secrets.push(box.open(endpoint.previous_secret_sealed, endpointSealContext(endpoint)));
  return secrets;
}

interface DeliveryJobDeps {
  config: WorkerConfig;
  jobs: JobRuntime;
  pool: Pool;
  box: SecretBox;
  onMailQueued: () => void;
}

/**
 * Sends deliveries: at least once, with the delivery id as `webhook-id` on every attempt, and
 * about one resource in the order they were created (a later one waits while an earlier one is
 * pending). A delivery that used its last attempt disables its endpoint and e-mails the seller.
 */
export function startDeliveryJobs(deps: DeliveryJobDeps): Queue<DeliveryJobData> {
  const { config, jobs, pool } = deps;
  const queue = jobs.queue<DeliveryJobData>(WEBHOOK_DELIVERIES_QUEUE);

  const promoteNext = async (delivery: DeliveryRow) => {
    const next = await nextPending(pool, delivery);
    if (!next) return;
    const job = await queue.getJob(deliveryJobId(next));
    if (job && (await job.isDelayed())) await job.promote();
  };

  jobs.process<DeliveryJobData>(
    WEBHOOK_DELIVERIES_QUEUE,
    async (job: Job<DeliveryJobData>, token?: string) => {
      const delivery = await deliveryById(pool, job.data.deliveryId);
      if (!delivery) {
        if (Date.now() - job.timestamp < UNCOMMITTED_GRACE_MS) return waitAndRetry(job, token, 250);
        return;
      }
      if (delivery.status !== 'pending') return;
      const endpoint = await endpointById(pool, delivery.endpoint_id);
      if (!endpoint) return;
      const manual = job.data.manual === true;
      if (!endpoint.enabled && !manual) {
        await recordAttempt(pool, delivery.id, {
          status: 'failed',
          responseStatus: null,
          durationMs: null,
          responseBody: null,
          error: 'endpoint disabled',
          nextAttemptAt: null,
          counted: false,
        });
        return promoteNext(delivery);
      }
      if (!manual && (await earlierPending(pool, delivery)))
        return waitAndRetry(job, token, config.WEBHOOK_BACKOFF_MS);

      const attempt = await attemptDelivery(delivery, endpoint, deps);
      if (attempt.ok) {
        await record(pool, delivery, 'succeeded', attempt, null);
        return promoteNext(delivery);
      }
      const isLast = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (!isLast) {
        const delay = config.WEBHOOK_BACKOFF_MS * 2 ** job.attemptsMade;
        await record(pool, delivery, 'pending', attempt, new Date(Date.now() + delay));
        throw new Error(attempt.error ?? `endpoint answered ${attempt.responseStatus}`);
      }
      await withTransaction(pool, async (tx) => {
        await record(tx, delivery, 'failed', attempt, null);
        if (!manual) await disableEndpoint(tx, endpoint, delivery, config);
      });
      if (!manual) deps.onMailQueued();
      return promoteNext(delivery);
    },
    { concurrency: 8 },
  );
  return queue;
}

async function waitAndRetry(job: Job, token: string | undefined, delayMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}

function attemptDelivery(
  delivery: DeliveryRow,
  endpoint: EndpointRow,
  { config, box }: DeliveryJobDeps,
): Promise<AttemptResult> {
  const now = new Date();
  const body = JSON.stringify(delivery.payload);
  const headers = webhookHeaders(signingSecrets(endpoint, box, now), {
    id: delivery.id,
    timestamp: Math.floor(now.getTime() / 1000),
    body,
  });
  return sendWebhook({
    url: endpoint.url,
    headers,
    body,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
  });
}

function record(
  tx: Parameters<typeof recordAttempt>[0],
  delivery: DeliveryRow,
  status: DeliveryRow['status'],
  attempt: AttemptResult,
  nextAttemptAt: Date | null,
) {
  return recordAttempt(tx, delivery.id, {
    status,
    responseStatus: attempt.responseStatus,
    durationMs: attempt.durationMs,
    responseBody: attempt.responseBody,
    error: attempt.error,
    nextAttemptAt,
    counted: true,
  });
}

/** Persistent failure: the endpoint stops receiving until its owner turns it on again. */
async function disableEndpoint(
  tx: Parameters<typeof recordAttempt>[0],
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  config: WorkerConfig,
): Promise<void> {
  const current = await endpointById(tx, endpoint.id);
  if (!current?.enabled) return;
  const reason = `${delivery.event_type} delivery ${delivery.id} failed ${config.WEBHOOK_ATTEMPTS} attempts over about ${describeSpan(config)}`;
  await updateEndpoint(tx, endpoint.id, { enabled: false, disabled_reason: reason });
  const settingsUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}/settings#webhooks`;
  const email = renderEmail({
    subject: 'Your webhook endpoint was disabled',
    heading: 'We stopped sending to your webhook endpoint',
    paragraphs: [
      `Deliveries to ${endpoint.url} kept failing, so we disabled the endpoint: ${reason}.`,
      'Fix the receiver, turn the endpoint on again in your settings, and use "Redeliver" on the deliveries it missed.',
    ],
    action: { label: 'Open webhook settings', url: settingsUrl },
  });
  await enqueueMail(tx, {
    to: current.seller_email,
    subject: email.subject,
    text: email.text,
    html: email.html,
  });
}

function describeSpan(config: WorkerConfig): string {
  const totalMs = config.WEBHOOK_BACKOFF_MS * (2 ** (config.WEBHOOK_ATTEMPTS - 1) - 1);
  const hours = totalMs / 3_600_000;
  return hours >= 1 ? `${Math.round(hours)} h` : `${Math.max(1, Math.round(totalMs / 1000))} s`;
}

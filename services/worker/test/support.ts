import { randomUUID } from 'node:crypto';
import { createSecretBox, parseSecretKeys } from '@lockdrop/auth';
import {
  createEvent,
  DEV_PAYOUT_INSTRUCTION_KEYS,
  sealPayoutInstruction,
  type CommandReply,
  type PayoutInstruction,
} from '@lockdrop/contracts';
import { loadConfig } from '@lockdrop/config';
import { connectBus, type Bus } from '@lockdrop/bus';
import type { DomainEvent, EventType } from '@lockdrop/contracts';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { mailboxSchema } from '@lockdrop/mailer';
import { serviceSchemas } from '@lockdrop/service';
import {
  createTestDatabase,
  serviceTestEnv,
  deleteStreams,
  testEnv,
  testNamespace,
  waitFor,
  type TestDatabase,
} from '@lockdrop/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { buildApp, type WorkerDeps } from '../src/app.js';
import { createFlutterwaveTransfers } from '../src/payouts/providers/flutterwave.js';
import { PAYOUTS_QUEUE } from '../src/payouts/queues.js';
import { startFakeFlutterwaveTransfers } from './fakes/flutterwave-transfers.js';
import { configSchema, type WorkerConfig } from '../src/config.js';
import { migrations } from '../src/db/migrations/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are matched by type, then fields asserted
export type SeenEvent = DomainEvent & { data: any };

/**
 * One test file's worker: its own database and bus namespace (also the BullMQ key prefix, so
 * queues never mix between files), a test-side bus connection that plays the other services,
 * and every event the worker published.
 */
export interface WorkerHarness {
  namespace: string;
  config: WorkerConfig;
  database: TestDatabase;
  bus: Bus;
  pool: Pool;
  published: SeenEvent[];
  /** Starts a worker process on this harness's database, bus and Redis (call it twice for two). */
  startWorker(deps?: WorkerDeps): Promise<HttpServer>;
  /**
   * A payout's job as BullMQ holds it (the job id is the payout id): `completed` with what it
   * returned, `delayed` while it waits to look at the provider again, … — a watermark for the
   * worker's side, where a test would otherwise sleep and assert that nothing happened.
   */
  payoutJob(payoutId: string): Promise<{ state: string; returnvalue: unknown }>;
  close(): Promise<void>;
}

export async function startWorkerHarness(
  env: Record<string, string> = {},
  observe: (EventType | `${string}.*`)[] = [],
  /** Substitutes for the first worker, given the test database (e.g. scripted payout adapters). */
  firstWorkerDeps?: (database: TestDatabase) => WorkerDeps,
): Promise<WorkerHarness> {
  const database = await createTestDatabase({
    schemas: serviceSchemas({ name: 'worker', migrations, sharedSchemas: [mailboxSchema] }),
  });
  const namespace = testNamespace();
  const config = loadConfig(configSchema, {
    ...serviceTestEnv({ databaseUrl: database.url, namespace }),
    ...env,
  });
  const workers: HttpServer[] = [];
  const startWorker = async (deps?: WorkerDeps) => {
    const app = await buildApp(config, deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    workers.push(app);
    return app;
  };
  // The first worker migrates the schema the test-side pool reads.
  await startWorker(firstWorkerDeps?.(database));
  const pool = createPool({ connectionString: database.url, schema: 'worker', max: 2 });
  const bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'worker-test' });
  const published: SeenEvent[] = [];
  const observers = await Promise.all(
    observe.map((filter, index) =>
      bus.subscribe({
        consumer: `test.observer${index}`,
        filter: filter as EventType,
        pool,
        handler: async (event) => {
          published.push(event);
        },
      }),
    ),
  );
  let payouts: Queue | undefined;
  return {
    namespace,
    config,
    database,
    bus,
    pool,
    published,
    startWorker,
    async payoutJob(payoutId) {
      payouts ??= new Queue(PAYOUTS_QUEUE, {
        connection: new Redis(config.REDIS_URL, { maxRetriesPerRequest: null }),
        prefix: namespace,
      });
      const job = await payouts.getJob(payoutId);
      return { state: job ? await job.getState() : 'missing', returnvalue: job?.returnvalue };
    },
    async close() {
      await payouts?.close();
      await Promise.all(observers.map((observer) => observer.stop()));
      await Promise.all(workers.map((worker) => worker.close()));
      await bus.close();
      await pool.end();
      const redis = new Redis(testEnv.redisUrl);
      const keys = await redis.keys(`${namespace}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
    },
  };
}

export { waitFor };

/**
 * What payments answers `payouts.instruction` with, as the worker's tests play payments: the
 * instruction sealed under the development PAYOUT_INSTRUCTION_KEYS, which the harness's worker
 * opens; a `send: false` answer goes as it is.
 */
export function answerAsPayments(
  reply: PayoutInstruction | { send: false; status: string },
): CommandReply<'payouts.instruction'> {
  return reply.send ? sealPayoutInstruction(paymentsBox, reply) : reply;
}
const paymentsBox = createSecretBox(parseSecretKeys(DEV_PAYOUT_INSTRUCTION_KEYS));

/**
 * Plays payments' side of `payouts.instruction` from `instructions` (keyed by payout id); an id
 * it does not hold is answered as payments being down.
 */
export function servePayoutInstructions(
  harness: WorkerHarness,
  instructions: Map<string, PayoutInstruction | { send: false; status: string }>,
): void {
  harness.bus.serve('payouts.instruction', async ({ payoutId }) => {
    const reply = instructions.get(payoutId);
    if (!reply) throw new Error('payments is down');
    return answerAsPayments(reply);
  });
}

/** A worker whose live payouts go to the Flutterwave transfers fake, with its switches. */
export async function startWorkerOnFakeFlutterwave(env: Record<string, string>) {
  const fake = await startFakeFlutterwaveTransfers();
  const harness = await startWorkerHarness(env, ['payout.*'], () => {
    const flutterwave = createFlutterwaveTransfers({
      baseUrl: fake.baseUrl,
      secretKey: fake.secretKey,
      timeoutMs: 2_000,
    });
    return { payoutAdapters: { for: () => flutterwave } };
  });
  return { harness, fake };
}

/** An NGN bank payout as payments would instruct it (a new payout id each time). */
export function payoutInstruction(overrides: Partial<PayoutInstruction> = {}): PayoutInstruction {
  const payoutId = overrides.payoutId ?? randomUUID();
  return {
    send: true,
    payoutId,
    sellerId: randomUUID(),
    amountMinor: 1_250_000,
    currency: 'NGN',
    narration: `Lockdrop payout ${payoutId.slice(0, 8)}`,
    providerTransferId: null,
    destination: {
      method: 'bank',
      bankCode: '058',
      accountNumber: '0123456789',
      accountName: 'ADA OKAFOR',
    },
    ...overrides,
  };
}

/** Payments' `payout.requested` for this instruction's payout. */
export const payoutRequested = (instruction: PayoutInstruction) =>
  createEvent(
    'payout.requested',
    {
      payoutId: instruction.payoutId,
      sellerId: instruction.sellerId,
      amountMinor: instruction.amountMinor,
      currency: instruction.currency,
      method: instruction.destination.method,
    },
    { correlationId: instruction.payoutId },
  );

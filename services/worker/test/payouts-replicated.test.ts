import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { PayoutInstruction } from '@lockdrop/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  servePayoutInstructions,
  startWorkerHarness,
  waitFor,
  type WorkerHarness,
  payoutInstruction,
  payoutRequested,
} from './support.js';

/**
 * PAYOUT_JOB_REPLICAS (issue 32): Redis replicates asynchronously, so a payout job only on a
 * primary that dies before passing it on would vanish, and nothing would ask for that payout
 * again. The worker counts `payout.requested` as handled only once a replica holds the job
 * (Redis's WAIT). Real redis-server processes: a primary, and a replica started later.
 */
let harness: WorkerHarness;
let primary: { port: number; process: ChildProcess };
let replica: { port: number; process: ChildProcess } | undefined;
const instructions = new Map<string, PayoutInstruction>();

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function startRedis(...args: string[]) {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args],
    { stdio: 'ignore' },
  );
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50 });
  probe.on('error', () => undefined); // refused until the server listens
  await waitFor(async () => (await probe.ping().catch(() => '')) === 'PONG', 10_000);
  probe.disconnect();
  return { port, process: child };
}

beforeAll(async () => {
  // Redis waits 5 s by default before a diskless full sync, gathering replicas to sync at once;
  // the replica here is alone, and those 5 s could outlast the worker's 5 s retry.
  primary = await startRedis('--repl-diskless-sync-delay', '0');
  harness = await startWorkerHarness(
    {
      REDIS_URL: `redis://127.0.0.1:${primary.port}`,
      PAYOUT_JOB_REPLICAS: '1',
      PAYOUT_JOB_REPLICA_TIMEOUT_MS: '200',
      SANDBOX_PAYOUT_DELAY_MS: '0',
      PAYOUT_BACKOFF_MS: '100',
      PAYOUT_POLL_MS: '60000',
    },
    ['payout.*'],
  );
  servePayoutInstructions(harness, instructions);
}, 60_000);
afterAll(async () => {
  await harness?.close();
  replica?.process.kill('SIGKILL');
  primary?.process.kill('SIGKILL');
});

const handled = async (eventId: string) =>
  (
    await harness.pool.query(
      `SELECT 1 FROM processed_events WHERE consumer = 'worker.payouts-requested' AND event_id = $1`,
      [eventId],
    )
  ).rowCount === 1;

describe('a payout job on a replicated Redis', () => {
  it('counts payout.requested as handled only once a replica holds the job', async () => {
    const instruction = payoutInstruction();
    const payoutId = instruction.payoutId;
    instructions.set(payoutId, instruction);
    const requested = payoutRequested(instruction);
    await harness.bus.publish(requested);

    // The primary holds the job (the handler made it), but no replica does: not handled, though
    // the handler has had time to wait out its 200 ms several times.
    await waitFor(async () => (await harness.payoutJob(payoutId)).state !== 'missing', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await handled(requested.id)).toBe(false);

    replica = await startRedis('--replicaof', '127.0.0.1', String(primary.port));
    // The event is retried 1, 5 and 15 s after each failure (the bus's backoff): a retry that
    // came before the replica was in sync is followed by the next within 15 s.
    await waitFor(() => handled(requested.id), 30_000);
  }, 60_000);
});

import { createEvent, type PayoutInstruction } from '@lockdrop/contracts';
import { createPool, type Pool } from '@lockdrop/db';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxPayouts } from '../src/payouts/providers/sandbox.js';
import {
  PayoutProviderUnavailableError,
  PayoutRejectedError,
  type PayoutAdapter,
  type Transfer,
} from '../src/payouts/providers/types.js';
import { processedBy, waitUntil } from '@lockdrop/testing';
import {
  startWorkerHarness,
  waitFor,
  type WorkerHarness,
  answerAsPayments,
  servePayoutInstructions,
  payoutInstruction,
  payoutRequested,
} from './support.js';

/**
 * The worker's half of payouts through the bus and BullMQ on real Redis. Payments is played by
 * the test on the same contracts: it answers `payouts.instruction` and reads the worker's
 * `payout.transfer_*` events; payments' own tests hold the other half.
 */
let harness: WorkerHarness;
const instructions = new Map<string, PayoutInstruction | { send: false; status: string }>();
const asked: string[] = [];

beforeAll(async () => {
  harness = await startWorkerHarness(
    { SANDBOX_PAYOUT_DELAY_MS: '200', PAYOUT_BACKOFF_MS: '100', PAYOUT_POLL_MS: '60000' },
    ['payout.*'],
  );
  harness.bus.serve('payouts.instruction', async ({ payoutId }) => {
    asked.push(payoutId);
    const reply = instructions.get(payoutId);
    if (!reply) throw new Error('payments is down');
    return answerAsPayments(reply);
  });
});
afterAll(() => harness?.close());
beforeEach(() => {
  asked.length = 0;
});

function instructionFor(accountNumber = '0123456789'): PayoutInstruction {
  const instruction = payoutInstruction({
    destination: { method: 'bank', bankCode: '058', accountNumber, accountName: 'ADA OKAFOR' },
  });
  instructions.set(instruction.payoutId, instruction);
  return instruction;
}

/** Payments asks for the payout (`payout.requested`); returns the event's id. */
async function requestPayout(instruction: PayoutInstruction): Promise<string> {
  const requested = payoutRequested(instruction);
  await harness.bus.publish(requested);
  return requested.id;
}

const eventsFor = (payoutId: string, type: string) =>
  harness.published.filter((event) => event.type === type && event.data.payoutId === payoutId);

async function transfersAtSandbox(reference: string): Promise<number> {
  const { rows } = await harness.pool.query(
    'SELECT count(*)::int AS n FROM sandbox_transfers WHERE reference = $1',
    [reference],
  );
  return rows[0].n;
}

describe('payout jobs with the sandbox provider', () => {
  it('sends a requested payout once and reports submitted, then paid', async () => {
    const instruction = instructionFor();
    await requestPayout(instruction);
    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_completed').length === 1);
    const [submitted] = eventsFor(instruction.payoutId, 'payout.transfer_submitted');
    const [completed] = eventsFor(instruction.payoutId, 'payout.transfer_completed');
    expect(submitted!.data).toMatchObject({ provider: 'sandbox', providerTransferId: /^SBX-\d+$/ });
    expect(completed!.data).toMatchObject({
      provider: 'sandbox',
      providerTransferId: submitted!.data.providerTransferId,
      status: 'successful',
      reason: null,
    });
    expect(await transfersAtSandbox(instruction.payoutId)).toBe(1);
  });

  it('reports a failing account with the reason a seller can act on', async () => {
    const instruction = instructionFor('0123450000');
    await requestPayout(instruction);
    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_completed').length === 1);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')[0]!.data).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('Check your account number'),
    });
  });

  it('a redelivered request and a second worker still make one transfer', async () => {
    const second = await harness.startWorker();
    try {
      const instruction = instructionFor();
      const requests = await Promise.all([requestPayout(instruction), requestPayout(instruction)]);
      await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_completed').length > 0);
      // The watermark: both requests handled by the consumer, and the one job they share done.
      for (const eventId of requests)
        await processedBy(harness.pool, 'worker.payouts-requested', eventId);
      await waitFor(
        async () => (await harness.payoutJob(instruction.payoutId)).state === 'completed',
      );
      expect(await transfersAtSandbox(instruction.payoutId)).toBe(1);
      expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('does not send a payout payments says is already final', async () => {
    const instruction = instructionFor();
    instructions.set(instruction.payoutId, { send: false, status: 'paid' });
    await requestPayout(instruction);
    await waitFor(() => asked.includes(instruction.payoutId));
    // The watermark: the job has finished, with payments' answer as its reason.
    const job = await waitUntil(
      () => harness.payoutJob(instruction.payoutId),
      (found) => found.state === 'completed',
    );
    expect(job.returnvalue).toBe('not sent: payout is paid');
    expect(await transfersAtSandbox(instruction.payoutId)).toBe(0);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_submitted')).toHaveLength(0);
  });

  it("sends nothing on an answer sealed for another payout: payout A's reply does not open as B's", async () => {
    const payoutA = instructionFor('0123456789');
    const payoutB = instructionFor('0999999999');
    // Whoever answers B's question replays A's genuine answer, sealed by payments for A.
    instructions.set(payoutB.payoutId, payoutA);
    await requestPayout(payoutB);
    await waitFor(() => asked.filter((id) => id === payoutB.payoutId).length >= 2);
    expect(await transfersAtSandbox(payoutB.payoutId)).toBe(0);
    expect(await transfersAtSandbox(payoutA.payoutId)).toBe(0);
    expect(eventsFor(payoutB.payoutId, 'payout.transfer_completed')).toHaveLength(0);

    // Payments' own answer for B opens, and B is paid once, to B's account.
    instructions.set(payoutB.payoutId, payoutB);
    await waitFor(() => eventsFor(payoutB.payoutId, 'payout.transfer_completed').length === 1);
    expect(await transfersAtSandbox(payoutB.payoutId)).toBe(1);
    expect(await transfersAtSandbox(payoutA.payoutId)).toBe(0);
  });

  it('retries while payments cannot answer, then sends', async () => {
    const instruction = instructionFor();
    instructions.delete(instruction.payoutId);
    await requestPayout(instruction);
    await waitFor(() => asked.filter((id) => id === instruction.payoutId).length >= 2);
    instructions.set(instruction.payoutId, instruction);
    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_completed').length === 1);
    expect(await transfersAtSandbox(instruction.payoutId)).toBe(1);
  });

  it('runs on the schedule and reports itself ready with Redis and the scheduler', async () => {
    const app = await harness.startWorker();
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      const runs = new Queue('payout-runs', {
        connection: new Redis(harness.config.REDIS_URL, { maxRetriesPerRequest: null }),
        prefix: harness.namespace,
      });
      const scheduler = await runs.getJobScheduler('payout-run');
      expect(scheduler).toMatchObject({ pattern: '0 9 * * 1-5', tz: 'Africa/Lagos' });
      await runs.add('run', {}, { jobId: 'manual-run' });
      await waitFor(() =>
        harness.published.some(
          (event) => event.type === 'payout.run_due' && event.data.runId === 'scheduled:manual-run',
        ),
      );
      await runs.close();
      const metrics = await app.inject({ url: '/metrics' });
      expect(metrics.body).toMatch(
        /worker_queue_jobs\{queue="payouts",state="completed",service="worker"\} \d+/,
      );
    } finally {
      await app.close();
    }
  });
});

/** An adapter around the sandbox whose behaviour a test scripts, counting provider calls. */
function scriptedAdapter(harnessAdapter: PayoutAdapter) {
  const calls = { create: 0, find: 0, get: 0 };
  const script = {
    /** The provider took the transfer but the answer never came back (a timeout). */
    loseFirstCreateAnswer: false,
    rejectWith: null as string | null,
    holdPending: false,
  };
  const hold = (transfer: Transfer): Transfer =>
    script.holdPending ? { ...transfer, status: 'pending', failureReason: null } : transfer;
  const adapter: PayoutAdapter = {
    name: 'sandbox',
    async findByReference(payoutId) {
      calls.find += 1;
      const found = await harnessAdapter.findByReference(payoutId);
      return found && hold(found);
    },
    async create(instruction) {
      calls.create += 1;
      if (script.rejectWith) throw new PayoutRejectedError(script.rejectWith);
      const transfer = await harnessAdapter.create(instruction);
      if (script.loseFirstCreateAnswer && calls.create === 1)
        throw new PayoutProviderUnavailableError('timeout after the provider took it');
      return hold(transfer);
    },
    async get(id, payoutId) {
      calls.get += 1;
      return hold(await harnessAdapter.get(id, payoutId));
    },
  };
  return { adapter, calls, script };
}

describe('payout jobs when things go wrong', () => {
  let scripted: ReturnType<typeof scriptedAdapter>;
  let other: WorkerHarness;
  const otherInstructions = new Map<string, PayoutInstruction>();

  let adapterPool: Pool | undefined;

  beforeAll(async () => {
    other = await startWorkerHarness(
      { SANDBOX_PAYOUT_DELAY_MS: '0', PAYOUT_BACKOFF_MS: '100', PAYOUT_POLL_MS: '600000' },
      ['payout.*'],
      (database) => {
        adapterPool = createPool({ connectionString: database.url, schema: 'worker', max: 2 });
        scripted = scriptedAdapter(createSandboxPayouts({ pool: adapterPool, delayMs: 0 }));
        return { payoutAdapters: { for: () => scripted.adapter } };
      },
    );
    servePayoutInstructions(other, otherInstructions);
  });
  afterAll(async () => {
    await adapterPool?.end();
    await other?.close();
  });

  const send = async () => {
    const instruction = instructionFor();
    otherInstructions.set(instruction.payoutId, instruction);
    await other.bus.publish(
      createEvent(
        'payout.requested',
        {
          payoutId: instruction.payoutId,
          sellerId: instruction.sellerId,
          amountMinor: instruction.amountMinor,
          currency: 'NGN',
          method: 'bank',
        },
        { correlationId: instruction.payoutId },
      ),
    );
    return instruction;
  };
  const completed = (payoutId: string) =>
    other.published.filter(
      (event) => event.type === 'payout.transfer_completed' && event.data.payoutId === payoutId,
    );

  it('a crash between the provider taking the transfer and our record makes no second transfer', async () => {
    Object.assign(scripted.calls, { create: 0, find: 0, get: 0 });
    Object.assign(scripted.script, {
      loseFirstCreateAnswer: true,
      rejectWith: null,
      holdPending: false,
    });
    const instruction = await send();
    await waitFor(() => completed(instruction.payoutId).length === 1);
    const { rows } = await other.pool.query(
      'SELECT count(*)::int AS n FROM sandbox_transfers WHERE reference = $1',
      [instruction.payoutId],
    );
    expect(rows[0].n).toBe(1);
    expect(completed(instruction.payoutId)[0]!.data.status).toBe('successful');
  });

  it('a refusal fails the payout at once with the provider’s reason', async () => {
    Object.assign(scripted.script, {
      loseFirstCreateAnswer: false,
      rejectWith: 'Invalid account number',
      holdPending: false,
    });
    const instruction = await send();
    await waitFor(() => completed(instruction.payoutId).length === 1);
    expect(completed(instruction.payoutId)[0]!.data).toMatchObject({
      status: 'failed',
      reason: 'Invalid account number',
      providerTransferId: null,
    });
  });

  it('a transfer webhook reported by payments makes the worker look now, not at the next poll', async () => {
    Object.assign(scripted.script, {
      loseFirstCreateAnswer: false,
      rejectWith: null,
      holdPending: true,
    });
    const instruction = await send();
    await waitFor(() =>
      other.published.some(
        (event) =>
          event.type === 'payout.transfer_submitted' &&
          event.data.payoutId === instruction.payoutId,
      ),
    );
    // The watermark: the job found the transfer pending and waits for its next look.
    await waitFor(async () => (await other.payoutJob(instruction.payoutId)).state === 'delayed');
    expect(completed(instruction.payoutId)).toHaveLength(0);
    scripted.script.holdPending = false;
    await other.bus.publish(
      createEvent(
        'payout.transfer_reported',
        { payoutId: instruction.payoutId, provider: 'flutterwave' },
        { correlationId: instruction.payoutId },
      ),
    );
    // PAYOUT_POLL_MS is ten minutes: only the promotion can finish it within the wait.
    await waitFor(() => completed(instruction.payoutId).length === 1, 10_000);
    expect(completed(instruction.payoutId)[0]!.data.status).toBe('successful');
  });
});

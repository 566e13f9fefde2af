import { randomUUID } from 'node:crypto';
import { loadConfig } from '@lockdrop/config';
import { createEvent, type PayoutInstruction } from '@lockdrop/contracts';
import { serviceTestEnv } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../src/config.js';
import type { FakeFlutterwaveTransfers } from './fakes/flutterwave-transfers.js';
import {
  servePayoutInstructions,
  startWorkerOnFakeFlutterwave,
  waitFor,
  type WorkerHarness,
} from './support.js';

/**
 * Issue 30, item 5: test money never becomes a real payout. The worker's live adapter is the
 * Flutterwave fake; a test-mode payout must reach only the sandbox (counted in the fake's own
 * transfers and the sandbox's table), and production refuses live payouts beside test payments.
 */
let harness: WorkerHarness;
let fake: FakeFlutterwaveTransfers;
const instructions = new Map<string, PayoutInstruction>();

beforeAll(async () => {
  ({ harness, fake } = await startWorkerOnFakeFlutterwave({
    PAYOUT_BACKOFF_MS: '100',
    PAYOUT_POLL_MS: '200',
    SANDBOX_PAYOUT_DELAY_MS: '0',
  }));
  servePayoutInstructions(harness, instructions);
});
afterAll(async () => {
  await harness?.close();
  await fake?.close();
});

async function requestPayout(testMode: boolean | undefined) {
  const payoutId = randomUUID();
  const instruction: PayoutInstruction = {
    send: true,
    payoutId,
    sellerId: randomUUID(),
    amountMinor: 500_000,
    currency: 'NGN',
    narration: `Lockdrop payout ${payoutId.slice(0, 8)}`,
    providerTransferId: null,
    destination: {
      method: 'bank',
      bankCode: '044',
      accountNumber: '0690000040',
      accountName: 'ADA OKAFOR',
    },
  };
  instructions.set(payoutId, instruction);
  await harness.bus.publish(
    createEvent(
      'payout.requested',
      {
        payoutId,
        sellerId: instruction.sellerId,
        amountMinor: instruction.amountMinor,
        currency: 'NGN',
        method: 'bank',
        ...(testMode === undefined ? {} : { testMode }),
      },
      { correlationId: payoutId },
    ),
  );
  return payoutId;
}

const eventsFor = (payoutId: string, type: string) =>
  harness.published.filter((event) => event.type === type && event.data.payoutId === payoutId);
const atLiveProvider = (payoutId: string) =>
  fake.transfers.filter((transfer) => transfer.reference === payoutId).length;
async function atSandbox(payoutId: string): Promise<number> {
  const { rows } = await harness.pool.query(
    'SELECT count(*)::int AS n FROM sandbox_transfers WHERE reference = $1',
    [payoutId],
  );
  return rows[0].n;
}

describe('test-mode payouts', () => {
  it('a test-mode payout is sent only through the sandbox, never the live provider', async () => {
    const payoutId = await requestPayout(true);
    await waitFor(() => eventsFor(payoutId, 'payout.transfer_completed').length > 0);
    expect(eventsFor(payoutId, 'payout.transfer_completed')[0]!.data).toMatchObject({
      provider: 'sandbox',
      status: 'successful',
    });
    expect(await atSandbox(payoutId)).toBe(1);
    expect(atLiveProvider(payoutId)).toBe(0);
  });

  it('a live payout goes to the live provider (the watermark: test and live share one queue)', async () => {
    const testPayout = await requestPayout(true);
    const livePayout = await requestPayout(false);
    await waitFor(() => eventsFor(livePayout, 'payout.transfer_submitted').length > 0);
    await waitFor(() => eventsFor(testPayout, 'payout.transfer_completed').length > 0);
    expect(atLiveProvider(livePayout)).toBe(1);
    expect(await atSandbox(livePayout)).toBe(0);
    expect(atLiveProvider(testPayout)).toBe(0);
    expect(eventsFor(livePayout, 'payout.transfer_submitted')[0]!.data.provider).toBe(
      'flutterwave',
    );
  });
});

describe('configuration', () => {
  const production = {
    ...serviceTestEnv({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/x', namespace: 'cfg' }),
    NODE_ENV: 'production',
    PAYOUT_PROVIDER: 'live',
    FLW_SECRET_KEY: 'FLWSECK-live-0123456789-X',
    WEBHOOK_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 3).toString('base64')}`,
    PAYOUT_INSTRUCTION_KEYS: `i1:${Buffer.alloc(32, 4).toString('base64')}`,
  };

  it("production needs payments' private instruction key, not the published one", () => {
    const { PAYOUT_INSTRUCTION_KEYS: _private, ...without } = production;
    expect(() => loadConfig(configSchema, without)).toThrow(
      /PAYOUT_INSTRUCTION_KEYS: production needs payments' own key/,
    );
  });

  it('production refuses live payouts while payments takes test payments, in one line', () => {
    expect(() => loadConfig(configSchema, { ...production, ALLOW_TEST_PAYMENTS: 'true' })).toThrow(
      /PAYOUT_PROVIDER: production refuses live payouts while payments takes test payments/,
    );
    expect(() => loadConfig(configSchema, production)).not.toThrow();
    expect(() =>
      loadConfig(configSchema, {
        ...production,
        PAYOUT_PROVIDER: 'sandbox',
        ALLOW_TEST_PAYMENTS: 'true',
      }),
    ).not.toThrow();
  });
});

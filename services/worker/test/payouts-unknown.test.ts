import { createEvent, type PayoutInstruction } from '@lockdrop/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeFlutterwaveTransfers } from './fakes/flutterwave-transfers.js';
import {
  servePayoutInstructions,
  startWorkerOnFakeFlutterwave,
  waitFor,
  type WorkerHarness,
  payoutInstruction,
  payoutRequested,
} from './support.js';

/**
 * Issue 30, item 2: an ambiguous provider answer must never pay a seller twice. The worker runs
 * its payout jobs against the Flutterwave fake at its worst (a 503 after which the transfer
 * happened, a `reference` filter that is ignored, paged lists, a list that does not show the
 * transfer); what the provider did is counted in the fake's own transfers.
 */
let harness: WorkerHarness;
let fake: FakeFlutterwaveTransfers;
const instructions = new Map<string, PayoutInstruction>();

beforeAll(async () => {
  ({ harness, fake } = await startWorkerOnFakeFlutterwave({
    PAYOUT_BACKOFF_MS: '100',
    PAYOUT_POLL_MS: '200',
  }));
  servePayoutInstructions(harness, instructions);
});
afterAll(async () => {
  await harness?.close();
  await fake?.close();
});
beforeEach(() => {
  Object.assign(fake.faults, {
    create: 'none',
    nextCreates: [],
    lookups: 'none',
    slowMs: 0,
    ignoreReferenceFilter: false,
    pageSize: 10,
  });
  fake.faults.hiddenFromLists.clear();
});

function instructionFor(overrides: Partial<PayoutInstruction> = {}): PayoutInstruction {
  const instruction = payoutInstruction({
    destination: {
      method: 'bank',
      bankCode: '044',
      accountNumber: '0690000040',
      accountName: 'ADA OKAFOR',
    },
    ...overrides,
  });
  instructions.set(instruction.payoutId, instruction);
  return instruction;
}

const requestPayout = (instruction: PayoutInstruction) =>
  harness.bus.publish(payoutRequested(instruction));

const reported = (payoutId: string) =>
  harness.bus.publish(
    createEvent(
      'payout.transfer_reported',
      { payoutId, provider: 'flutterwave' },
      { correlationId: payoutId },
    ),
  );

const eventsFor = (payoutId: string, type: string) =>
  harness.published.filter((event) => event.type === type && event.data.payoutId === payoutId);
/** What the provider executed for this payout: its own records, not ours. */
const transfersAtProvider = (payoutId: string) =>
  fake.transfers.filter((transfer) => transfer.reference === payoutId);

describe('an ambiguous provider answer', () => {
  it('a 503 after which the transfer happened, then a list that ignores the filter with the match on page 2: one transfer, paid, never failed', async () => {
    fake.addOthers(fake.faults.pageSize); // page 1 is someone else's transfers
    fake.faults.ignoreReferenceFilter = true;
    fake.faults.nextCreates.push('made_then_5xx');
    const instruction = instructionFor();
    await requestPayout(instruction);

    const [submitted] = await waitFor(() => {
      const events = eventsFor(instruction.payoutId, 'payout.transfer_submitted');
      return events.length > 0 && events;
    });
    expect(transfersAtProvider(instruction.payoutId)).toHaveLength(1);
    expect(submitted!.data.providerTransferId).toBe(
      String(transfersAtProvider(instruction.payoutId)[0]!.id),
    );

    fake.complete(instruction.payoutId, 'SUCCESSFUL');
    await reported(instruction.payoutId);
    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_completed').length > 0);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')).toHaveLength(1);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')[0]!.data).toMatchObject({
      status: 'successful',
      providerStatus: 'successful',
    });
    expect(transfersAtProvider(instruction.payoutId)).toHaveLength(1);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_unknown')).toHaveLength(0);
  });

  it('a duplicate reference that no lookup finds is unknown, never failed, and the job asks until the provider shows it', async () => {
    const instruction = instructionFor();
    fake.faults.hiddenFromLists.add(instruction.payoutId);
    fake.faults.nextCreates.push('made_then_5xx');
    await requestPayout(instruction);

    const [unknown] = await waitFor(() => {
      const events = eventsFor(instruction.payoutId, 'payout.transfer_unknown');
      return events.length > 0 && events;
    });
    expect(unknown!.data).toMatchObject({
      provider: 'flutterwave',
      providerTransferId: null,
      reason: expect.stringContaining('duplicate reference'),
    });
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')).toHaveLength(0);
    expect(transfersAtProvider(instruction.payoutId)).toHaveLength(1);

    // The provider's list shows it again: the job's own retry schedule finds it.
    fake.faults.hiddenFromLists.delete(instruction.payoutId);
    fake.complete(instruction.payoutId, 'SUCCESSFUL');
    await waitFor(
      () => eventsFor(instruction.payoutId, 'payout.transfer_completed').length > 0,
      20_000,
    );
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')[0]!.data).toMatchObject({
      status: 'successful',
      providerTransferId: String(transfersAtProvider(instruction.payoutId)[0]!.id),
    });
    expect(eventsFor(instruction.payoutId, 'payout.transfer_unknown')).toHaveLength(1);
    expect(transfersAtProvider(instruction.payoutId)).toHaveLength(1);
  });

  it('a refusal after an earlier attempt whose answer was lost is unknown, not failed', async () => {
    const instruction = instructionFor();
    fake.faults.hiddenFromLists.add(instruction.payoutId);
    fake.faults.nextCreates.push('made_then_5xx', 'refused');
    await requestPayout(instruction);
    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_unknown').length > 0);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_unknown')[0]!.data.reason).toContain(
      'Transfer could not be processed',
    );
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')).toHaveLength(0);
    expect(transfersAtProvider(instruction.payoutId)).toHaveLength(1);
  });

  it('looks a transfer up by the id payments recorded, so a list that misses it changes nothing', async () => {
    const instruction = instructionFor();
    // An earlier worker made the transfer and payments recorded its id; the list cannot see it.
    const response = await fetch(`${fake.baseUrl}/transfers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        account_bank: '044',
        account_number: '0690000040',
        amount: 12500,
        currency: 'NGN',
        reference: instruction.payoutId,
        narration: instruction.narration,
      }),
    });
    const made = ((await response.json()) as { data: { id: number } }).data;
    fake.faults.hiddenFromLists.add(instruction.payoutId);
    instructions.set(instruction.payoutId, { ...instruction, providerTransferId: String(made.id) });
    fake.complete(instruction.payoutId, 'SUCCESSFUL');
    await requestPayout(instruction);

    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_completed').length > 0);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')[0]!.data).toMatchObject({
      status: 'successful',
      providerTransferId: String(made.id),
    });
    expect(transfersAtProvider(instruction.payoutId)).toHaveLength(1);
  });

  it("a genuine failure is reported failed with the provider's own status", async () => {
    const instruction = instructionFor();
    await requestPayout(instruction);
    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_submitted').length > 0);
    fake.complete(instruction.payoutId, 'FAILED', 'DISBURSE FAILED: Account is dormant');
    await reported(instruction.payoutId);
    await waitFor(() => eventsFor(instruction.payoutId, 'payout.transfer_completed').length > 0);
    expect(eventsFor(instruction.payoutId, 'payout.transfer_completed')[0]!.data).toMatchObject({
      status: 'failed',
      providerStatus: 'failed',
      reason: 'DISBURSE FAILED: Account is dormant',
      providerTransferId: String(transfersAtProvider(instruction.payoutId)[0]!.id),
    });
    expect(transfersAtProvider(instruction.payoutId)).toHaveLength(1);
  });
});

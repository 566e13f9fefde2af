import { randomUUID } from 'node:crypto';
import type { PayoutInstruction } from '@lockdrop/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFlutterwaveTransfers } from '../src/payouts/providers/flutterwave.js';
import { createPayoneerPayouts } from '../src/payouts/providers/payoneer.js';
import { createWiseTransfers } from '../src/payouts/providers/wise.js';
import {
  PayoutOutcomeUnknownError,
  PayoutProviderUnavailableError,
  PayoutRejectedError,
} from '../src/payouts/providers/types.js';
import {
  startFakeFlutterwaveTransfers,
  type FakeFlutterwaveTransfers,
} from './fakes/flutterwave-transfers.js';
import { startFakePayoneer, startFakeWise } from './fakes/wise-and-payoneer.js';

/** Each real payout adapter against a local fake of its provider's HTTP contract. */
// Generous for a loaded CI machine (a 300 ms budget timed out an ordinary call there); the
// timeout cases make the fake slower than twice this.
const CLIENT_TIMEOUT_MS = 2_000;

const bankPayout = (accountNumber = '0690000040'): PayoutInstruction => {
  const payoutId = randomUUID();
  return {
    send: true,
    payoutId,
    sellerId: randomUUID(),
    amountMinor: 150_050,
    currency: 'NGN',
    narration: `Lockdrop payout ${payoutId.slice(0, 8)}`,
    providerTransferId: null,
    destination: { method: 'bank', bankCode: '044', accountNumber, accountName: 'BALE GARY' },
  };
};

describe('Flutterwave transfers', () => {
  let fake: FakeFlutterwaveTransfers;
  let adapter: ReturnType<typeof createFlutterwaveTransfers>;

  beforeAll(async () => {
    fake = await startFakeFlutterwaveTransfers();
    adapter = createFlutterwaveTransfers({
      baseUrl: fake.baseUrl,
      secretKey: fake.secretKey,
      timeoutMs: CLIENT_TIMEOUT_MS,
    });
  });
  afterAll(() => fake?.close());
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

  it('sends the payout in major units with the payout id as reference, then follows it to the end', async () => {
    const payout = bankPayout();
    expect(await adapter.findByReference(payout.payoutId)).toBeNull();
    const created = await adapter.create(payout);
    expect(created).toMatchObject({ status: 'pending', failureReason: null });
    expect(fake.transfers.at(-1)).toMatchObject({
      amount: 1500.5,
      currency: 'NGN',
      reference: payout.payoutId,
      account_number: '0690000040',
      bank_code: '044',
      full_name: 'BALE GARY',
    });
    fake.complete(payout.payoutId, 'SUCCESSFUL');
    expect(await adapter.get(created.providerTransferId, payout.payoutId)).toEqual({
      providerTransferId: created.providerTransferId,
      status: 'successful',
      failureReason: null,
    });
    expect(await adapter.findByReference(payout.payoutId)).toMatchObject({ status: 'successful' });
  });

  it("reports a failed transfer with the bank's reason", async () => {
    const payout = bankPayout();
    const created = await adapter.create(payout);
    fake.complete(payout.payoutId, 'FAILED', 'DISBURSE FAILED: Invalid beneficiary account');
    expect(await adapter.get(created.providerTransferId, payout.payoutId)).toMatchObject({
      status: 'failed',
      failureReason: 'DISBURSE FAILED: Invalid beneficiary account',
    });
  });

  it('a second create with the same reference returns the first transfer, never a second one', async () => {
    const payout = bankPayout();
    const first = await adapter.create(payout);
    const again = await adapter.create(payout);
    expect(again.providerTransferId).toBe(first.providerTransferId);
    expect(fake.transfers.filter((t) => t.reference === payout.payoutId)).toHaveLength(1);
  });

  it('an outage or a timeout is "try again", and the retry finds a transfer that was made', async () => {
    const payout = bankPayout();
    fake.faults.create = '5xx';
    await expect(adapter.create(payout)).rejects.toBeInstanceOf(PayoutProviderUnavailableError);
    fake.faults.create = '429';
    await expect(adapter.create(payout)).rejects.toBeInstanceOf(PayoutProviderUnavailableError);
    expect(fake.transfers.filter((t) => t.reference === payout.payoutId)).toHaveLength(0);

    fake.faults.create = 'made_then_5xx';
    await expect(adapter.create(payout)).rejects.toBeInstanceOf(PayoutProviderUnavailableError);
    fake.faults.create = 'none';
    // What the job does on its next attempt: look for the reference before creating.
    const found = await adapter.findByReference(payout.payoutId);
    expect(found).toMatchObject({ status: 'pending' });
    expect(fake.transfers.filter((t) => t.reference === payout.payoutId)).toHaveLength(1);

    fake.faults.slowMs = CLIENT_TIMEOUT_MS * 2;
    await expect(adapter.findByReference(payout.payoutId)).rejects.toBeInstanceOf(
      PayoutProviderUnavailableError,
    );
  });

  it('finds a reference on any page when the list ignores the filter; a duplicate no lookup finds is unknown, not refused', async () => {
    const payout = bankPayout();
    fake.addOthers(25);
    fake.faults.nextCreates.push('made_then_5xx');
    await expect(adapter.create(payout)).rejects.toBeInstanceOf(PayoutProviderUnavailableError);
    fake.faults.ignoreReferenceFilter = true;
    fake.faults.pageSize = 3;
    // The fake lists oldest first: ours is behind at least eight pages of other transfers.
    const position = fake.transfers.findIndex((t) => t.reference === payout.payoutId);
    expect(Math.floor(position / 3) + 1).toBeGreaterThan(8);
    // The duplicate-reference answer is followed by a lookup that reads every page.
    const again = await adapter.create(payout);
    expect(again.providerTransferId).toBe(
      String(fake.transfers.find((t) => t.reference === payout.payoutId)!.id),
    );
    expect(await adapter.findByReference(payout.payoutId)).toMatchObject({ status: 'pending' });
    const other = bankPayout();
    expect(await adapter.findByReference(other.payoutId)).toBeNull();

    fake.faults.hiddenFromLists.add(payout.payoutId);
    await expect(adapter.create(payout)).rejects.toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(fake.transfers.filter((t) => t.reference === payout.payoutId)).toHaveLength(1);
  });

  it('a transfer completed before the create call answered is reported as done', async () => {
    fake.faults.create = 'completes_at_once';
    expect(await adapter.create(bankPayout())).toMatchObject({ status: 'successful' });
  });

  it("a definite refusal fails the payout with the provider's words; a wrong key is not the seller's fault", async () => {
    await expect(adapter.create(bankPayout('12345'))).rejects.toEqual(
      new PayoutRejectedError('Invalid account number'),
    );
    const wrongKey = createFlutterwaveTransfers({
      baseUrl: fake.baseUrl,
      secretKey: 'FLWSECK-wrong-X',
      timeoutMs: CLIENT_TIMEOUT_MS,
    });
    await expect(wrongKey.create(bankPayout())).rejects.toBeInstanceOf(
      PayoutProviderUnavailableError,
    );
  });
});

const emailPayout = (method: 'wise' | 'payoneer', email: string): PayoutInstruction => {
  const payoutId = randomUUID();
  return {
    send: true,
    payoutId,
    sellerId: randomUUID(),
    amountMinor: 2_550,
    currency: 'USD',
    narration: `Lockdrop payout ${payoutId.slice(0, 8)}`,
    providerTransferId: null,
    destination: method === 'wise' ? { method, email, accountId: '48213377' } : { method, email },
  };
};

describe('Wise', () => {
  let fake: Awaited<ReturnType<typeof startFakeWise>>;
  let adapter: ReturnType<typeof createWiseTransfers>;
  beforeAll(async () => {
    fake = await startFakeWise();
    adapter = createWiseTransfers({
      baseUrl: fake.baseUrl,
      apiToken: fake.apiToken,
      profileId: fake.profileId,
      timeoutMs: CLIENT_TIMEOUT_MS,
    });
  });
  afterAll(() => fake?.close());

  it('quotes, creates the transfer with customerTransactionId = payout id, funds it once, and follows it', async () => {
    const payout = emailPayout('wise', 'ada@wise.example');
    expect(await adapter.findByReference(payout.payoutId)).toBeNull();
    const created = await adapter.create(payout);
    expect(created.status).toBe('pending');
    // A retry of the whole call (say, the job crashed before recording) makes and funds nothing new.
    const again = await adapter.create(payout);
    expect(again.providerTransferId).toBe(created.providerTransferId);
    const mine = fake.transfers.filter((t) => t.customerTransactionId === payout.payoutId);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.funded).toBe(1);

    fake.setState(payout.payoutId, 'outgoing_payment_sent');
    expect(await adapter.get(created.providerTransferId, payout.payoutId)).toMatchObject({
      status: 'successful',
    });
    expect(await adapter.findByReference(payout.payoutId)).toMatchObject({ status: 'successful' });
  });

  it('pages past the newest 100 to find a transfer, and a list stuck at the newest 100 still makes no second transfer', async () => {
    const payout = emailPayout('wise', 'old@wise.example');
    fake.faults.transfers = 'made_then_5xx';
    await expect(adapter.create(payout)).rejects.toBeInstanceOf(PayoutProviderUnavailableError);
    fake.faults.transfers = 'none';
    fake.addOthers(150);
    expect(await adapter.findByReference(payout.payoutId)).toMatchObject({ status: 'pending' });

    fake.faults.ignoreOffset = true;
    try {
      expect(await adapter.findByReference(payout.payoutId)).toBeNull();
      // Wise answers the repeated customerTransactionId with the transfer it made.
      await adapter.create(payout);
      expect(
        fake.transfers.filter((t) => t.customerTransactionId === payout.payoutId),
      ).toHaveLength(1);
    } finally {
      fake.faults.ignoreOffset = false;
    }
  });

  it('a returned transfer fails with a reason; a bad e-mail is refused; an outage is retried', async () => {
    const payout = emailPayout('wise', 'ada2@wise.example');
    const created = await adapter.create(payout);
    fake.setState(payout.payoutId, 'bounced_back');
    expect(await adapter.get(created.providerTransferId, payout.payoutId)).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining('Check your Wise e-mail'),
    });
    await expect(adapter.create(emailPayout('wise', 'not-an-email'))).rejects.toEqual(
      new PayoutRejectedError('Please provide a valid email'),
    );
    fake.faults.transfers = '5xx';
    await expect(adapter.create(emailPayout('wise', 'ada3@wise.example'))).rejects.toBeInstanceOf(
      PayoutProviderUnavailableError,
    );
    fake.faults.transfers = 'none';
  });
});

describe('Payoneer', () => {
  let fake: Awaited<ReturnType<typeof startFakePayoneer>>;
  let adapter: ReturnType<typeof createPayoneerPayouts>;
  beforeAll(async () => {
    fake = await startFakePayoneer();
    adapter = createPayoneerPayouts({
      baseUrl: fake.baseUrl,
      tokenUrl: fake.tokenUrl,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      programId: fake.programId,
      timeoutMs: CLIENT_TIMEOUT_MS,
    });
  });
  afterAll(() => fake?.close());

  it('pays out by client reference, reuses its token, and never pays a reference twice', async () => {
    const payout = emailPayout('payoneer', 'ada@payoneer.example');
    expect(await adapter.findByReference(payout.payoutId)).toBeNull();
    expect(await adapter.create(payout)).toMatchObject({ status: 'pending' });
    expect(fake.payouts.get(payout.payoutId)).toMatchObject({
      payee: 'ada@payoneer.example',
      amount: 25.5,
      currency: 'USD',
    });
    expect(await adapter.create(payout)).toMatchObject({ status: 'pending' });
    expect(fake.payouts.size).toBe(1);
    fake.setStatus(payout.payoutId, 'Transferred');
    expect(await adapter.get(payout.payoutId, payout.payoutId)).toMatchObject({
      status: 'successful',
    });
    expect(fake.counters.tokens).toBe(1);
  });

  it('a cancelled payout fails with the reason; an outage is retried; wrong credentials are ours', async () => {
    const payout = emailPayout('payoneer', 'ada2@payoneer.example');
    await adapter.create(payout);
    fake.setStatus(payout.payoutId, 'Cancelled', 'Payee is inactive');
    expect(await adapter.get(payout.payoutId, payout.payoutId)).toEqual({
      providerTransferId: payout.payoutId,
      status: 'failed',
      failureReason: 'Payee is inactive',
    });
    fake.faults.masspayouts = '5xx';
    await expect(
      adapter.create(emailPayout('payoneer', 'x@payoneer.example')),
    ).rejects.toBeInstanceOf(PayoutProviderUnavailableError);
    fake.faults.masspayouts = 'none';
    const wrong = createPayoneerPayouts({
      baseUrl: fake.baseUrl,
      tokenUrl: fake.tokenUrl,
      clientId: fake.clientId,
      clientSecret: 'wrong',
      programId: fake.programId,
      timeoutMs: CLIENT_TIMEOUT_MS,
    });
    await expect(
      wrong.create(emailPayout('payoneer', 'y@payoneer.example')),
    ).rejects.toBeInstanceOf(PayoutProviderUnavailableError);
  });
});

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createEvent, type EventData } from '@lockdrop/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  fetchJson,
  sell,
  startHarness,
  waitFor,
  type Harness,
  type TestUser,
  callAs,
  newSeller,
  saveBankDestination,
} from './support.js';

/**
 * Issue 30, item 2, payments' half: money returns to a seller's balance only on the provider's
 * word. The worker is played by the test on the contracts it uses (`payout.transfer_unknown`,
 * `payout.transfer_submitted`, `payout.transfer_completed` with `providerStatus`).
 */
let harness: Harness;
const run = promisify(execFile);
const HOUR = 3_600_000;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL: 'http://shop.test' });
});
afterAll(() => harness?.close());
beforeEach(() => {
  harness.clock.offsetMs = 0;
});

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  callAs(harness, user, method, path, body);

/** A seller with a bank account, one sale past its refund window, and a Withdraw now payout. */
async function withdrawnSeller() {
  harness.clock.offsetMs = 0;
  const seller = newSeller();
  await saveBankDestination(harness, seller);
  const sale = await sell(harness, { ownerId: seller.id });
  const { rows } = await harness.pool.query(
    'SELECT seller_earnings_minor AS e FROM purchases WHERE id = $1',
    [sale.purchaseId],
  );
  harness.clock.offsetMs = 25 * HOUR;
  const withdraw = await call(seller, 'POST', '/api/payouts/withdraw');
  expect(withdraw.status).toBe(202);
  const [payout] = (await withdraw.json()).payouts;
  return { seller, earnings: Number(rows[0].e), payoutId: payout.id as string };
}

async function ngn(seller: TestUser) {
  const response = await call(seller, 'GET', '/api/payouts/balances');
  return (await response.json()).balances.find((b: { currency: string }) => b.currency === 'NGN');
}

async function payoutRow(payoutId: string) {
  const { rows } = await harness.pool.query(
    `SELECT status, provider_transfer_id, outcome_unknown_since, outcome_unknown_reason
     FROM payouts WHERE id = $1`,
    [payoutId],
  );
  return rows[0];
}

async function metric(name: string): Promise<number> {
  const text = await (await fetchJson(`${harness.url}/metrics`)).text();
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

const report = <
  T extends 'payout.transfer_unknown' | 'payout.transfer_submitted' | 'payout.transfer_completed',
>(
  type: T,
  data: EventData<T>,
) => harness.publish(createEvent(type, data, { correlationId: data.payoutId }));

/** Waits until the completed-report consumer has refused one more report (a positive observation). */
async function refusedReport(send: () => Promise<void>) {
  const before = await metric('payments_payout_failed_reports_refused_total');
  await send();
  await waitFor(
    async () => (await metric('payments_payout_failed_reports_refused_total')) > before,
  );
}

/** `npm run payouts -- unknown`, the operator's command, against this file's database. */
async function operatorList(): Promise<string> {
  const { connectionString } = (
    harness.pool as unknown as { options: { connectionString: string } }
  ).options;
  const { stdout } = await run('node', ['tools/payouts.mjs', 'unknown'], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    env: { ...process.env, DATABASE_URL: connectionString },
  });
  return stdout;
}

async function payoutFailedJournals(payoutId: string): Promise<number> {
  const { rows } = await harness.pool.query(
    `SELECT count(DISTINCT journal_id)::int AS n FROM ledger_entries
     WHERE payout_id = $1 AND kind = 'payout_failed'`,
    [payoutId],
  );
  return rows[0].n;
}

describe('a payout whose outcome is unknown', () => {
  it('keeps the money in transit, is shown to an operator, refuses a failed report, and ends paid once the provider shows the transfer', async () => {
    const { seller, earnings, payoutId } = await withdrawnSeller();
    const availableSeen: number[] = [(await ngn(seller)).availableMinor];

    // The worker: a 503 after which the transfer happened, then a duplicate no lookup found.
    await report('payout.transfer_unknown', {
      payoutId,
      provider: 'flutterwave',
      providerTransferId: null,
      reason: 'flutterwave refused a duplicate reference that no lookup finds',
    });
    await waitFor(async () => (await payoutRow(payoutId)).outcome_unknown_since !== null);
    expect(await payoutRow(payoutId)).toMatchObject({ status: 'created' });
    expect(await metric('payments_payouts_outcome_unknown')).toBeGreaterThanOrEqual(1);
    expect(await operatorList()).toContain(payoutId);
    availableSeen.push((await ngn(seller)).availableMinor);

    // What the old worker sent for that answer: a failure with no provider status.
    await refusedReport(() =>
      report('payout.transfer_completed', {
        payoutId,
        provider: 'flutterwave',
        providerTransferId: null,
        status: 'failed',
        reason: 'Transfer with this reference already exists',
      }),
    );
    expect(await payoutRow(payoutId)).toMatchObject({ status: 'created' });
    expect(await ngn(seller)).toMatchObject({ availableMinor: 0, inTransitMinor: earnings });
    availableSeen.push((await ngn(seller)).availableMinor);

    // The provider's list shows the transfer; then its final word.
    await report('payout.transfer_submitted', {
      payoutId,
      provider: 'flutterwave',
      providerTransferId: '33290',
    });
    await waitFor(async () => (await payoutRow(payoutId)).outcome_unknown_since === null);
    await report('payout.transfer_completed', {
      payoutId,
      provider: 'flutterwave',
      providerTransferId: '33290',
      status: 'successful',
      reason: null,
      providerStatus: 'successful',
    });
    await waitFor(async () => (await payoutRow(payoutId)).status === 'paid');
    availableSeen.push((await ngn(seller)).availableMinor);
    expect(await ngn(seller)).toMatchObject({
      availableMinor: 0,
      inTransitMinor: 0,
      paidOutMinor: earnings,
    });
    expect(availableSeen.every((available) => available === 0)).toBe(true);
    expect(await payoutFailedJournals(payoutId)).toBe(0);
    const { rows } = await harness.pool.query(
      `SELECT count(*)::int AS n FROM payouts WHERE id = $1 AND outcome_unknown_since IS NOT NULL`,
      [payoutId],
    );
    expect(rows[0].n).toBe(0);
    expect(await operatorList()).not.toContain(payoutId);
  });

  it("refuses a failed report for a submitted payout without the provider's failed status; the provider's failure returns the money once", async () => {
    const { seller, earnings, payoutId } = await withdrawnSeller();
    await report('payout.transfer_submitted', {
      payoutId,
      provider: 'flutterwave',
      providerTransferId: '44001',
    });
    await waitFor(async () => (await payoutRow(payoutId)).status === 'submitted');

    await refusedReport(() =>
      report('payout.transfer_completed', {
        payoutId,
        provider: 'flutterwave',
        providerTransferId: null,
        status: 'failed',
        reason: 'Transfer with this reference already exists',
      }),
    );
    expect(await payoutRow(payoutId)).toMatchObject({ status: 'submitted' });
    expect(await ngn(seller)).toMatchObject({ availableMinor: 0, inTransitMinor: earnings });

    const failed = {
      payoutId,
      provider: 'flutterwave',
      providerTransferId: '44001',
      status: 'failed' as const,
      reason: 'DISBURSE FAILED: Account is dormant',
      providerStatus: 'failed' as const,
    };
    await report('payout.transfer_completed', failed);
    await waitFor(async () => (await payoutRow(payoutId)).status === 'failed');
    expect(await ngn(seller)).toMatchObject({ availableMinor: earnings, inTransitMinor: 0 });
    // A replay of the provider's failure (a new event) changes nothing.
    await report('payout.transfer_completed', failed);
    await report('payout.transfer_completed', { ...failed, providerTransferId: '44001' });
    const second = await withdrawnSecondPayoutWatermark();
    expect(second).toBe('paid');
    expect(await payoutFailedJournals(payoutId)).toBe(1);
    expect(await ngn(seller)).toMatchObject({ availableMinor: earnings, inTransitMinor: 0 });
  });

  it('an outright refusal, with no transfer anywhere, still fails at once', async () => {
    const { seller, earnings, payoutId } = await withdrawnSeller();
    await report('payout.transfer_completed', {
      payoutId,
      provider: 'flutterwave',
      providerTransferId: null,
      status: 'failed',
      reason: 'Invalid account number',
    });
    await waitFor(async () => (await payoutRow(payoutId)).status === 'failed');
    expect(await ngn(seller)).toMatchObject({ availableMinor: earnings, inTransitMinor: 0 });
  });
});

/**
 * A watermark for the completed-report consumer: another seller's payout reported paid after the
 * events before it; once it is paid, the earlier reports have been handled.
 */
async function withdrawnSecondPayoutWatermark(): Promise<string> {
  const { payoutId } = await withdrawnSeller();
  await report('payout.transfer_completed', {
    payoutId,
    provider: 'flutterwave',
    providerTransferId: '55001',
    status: 'successful',
    reason: null,
    providerStatus: 'successful',
  });
  await waitFor(async () => (await payoutRow(payoutId)).status === 'paid');
  return (await payoutRow(payoutId)).status;
}

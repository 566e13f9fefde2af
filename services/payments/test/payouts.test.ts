import { createHmac, randomUUID } from 'node:crypto';
import { createSecretBox, parseSecretKeys } from '@lockdrop/auth';
import {
  createEvent,
  openPayoutInstruction,
  type CommandReply,
  type EventData,
} from '@lockdrop/contracts';
import { processedBy } from '@lockdrop/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  fetchJson,
  mailTo,
  sell,
  startHarness,
  waitFor,
  type Harness,
  type TestUser,
  callAs,
  newSeller,
  saveBankDestination,
} from './support.js';
import { configSchema } from '../src/config.js';
import { resealDestinations } from '../src/modules/payouts/index.js';

/** The worker's side of `payouts.instruction`: it holds PAYOUT_INSTRUCTION_KEYS (here the development one). */
const workerBox = createSecretBox(configSchema.parse({}).PAYOUT_INSTRUCTION_KEYS);
const opened = (payoutId: string, reply: CommandReply<'payouts.instruction'>) => {
  if (!reply.send) throw new Error(`not sent: ${reply.status}`);
  return openPayoutInstruction(workerBox, payoutId, reply);
};

/**
 * Payments' side of payouts, through HTTP and the bus. The worker's part (sending transfers) is
 * played here by the test on the same contracts: it asks `payouts.instruction` and publishes
 * `payout.transfer_*` as the worker would; the worker's own tests hold the other half.
 */
let harness: Harness;
const HOUR = 3_600_000;
// Changes one byte of the ciphertext itself. Changing the text's last character is not enough:
// in unpadded base64url its low bits can be padding that decodes to the same bytes.
const withCiphertextByteFlipped = (sealed: string) => {
  const parts = sealed.split('.');
  const ciphertext = Buffer.from(parts[parts.length - 1]!, 'base64url');
  ciphertext.writeUInt8(ciphertext.readUInt8(0) ^ 0x01, 0);
  parts[parts.length - 1] = ciphertext.toString('base64url');
  return parts.join('.');
};

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL: 'http://shop.test' });
});
afterAll(() => harness?.close());
beforeEach(() => {
  harness.clock.offsetMs = 0;
});

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  callAs(harness, user, method, path, body);

const setBank = (seller: TestUser, accountNumber?: string, bankCode?: string) =>
  saveBankDestination(harness, seller, accountNumber, bankCode);

async function balances(seller: TestUser) {
  const response = await call(seller, 'GET', '/api/payouts/balances');
  expect(response.status).toBe(200);
  return response.json();
}

const balanceIn = async (seller: TestUser, currency: string) =>
  (await balances(seller)).balances.find((b: { currency: string }) => b.currency === currency);

async function earningsOf(purchaseId: string): Promise<number> {
  const { rows } = await harness.pool.query(
    'SELECT seller_earnings_minor AS e FROM purchases WHERE id = $1',
    [purchaseId],
  );
  return rows[0].e;
}

/** Plays the worker: the provider took the transfer, then gave its final word. */
async function completeTransfer(
  payoutId: string,
  status: 'successful' | 'failed',
  reason: string | null = null,
) {
  const transferId = `T-${payoutId.slice(0, 8)}`;
  await harness.publish(
    createEvent(
      'payout.transfer_submitted',
      { payoutId, provider: 'sandbox', providerTransferId: transferId },
      { correlationId: payoutId },
    ),
  );
  await harness.publish(
    createEvent(
      'payout.transfer_completed',
      {
        payoutId,
        provider: 'sandbox',
        providerTransferId: transferId,
        status,
        reason,
        providerStatus: status,
      },
      { correlationId: payoutId },
    ),
  );
  await waitFor(async () => {
    const { rows } = await harness.pool.query('SELECT status FROM payouts WHERE id = $1', [
      payoutId,
    ]);
    return rows[0]?.status === (status === 'successful' ? 'paid' : 'failed');
  });
}

async function ledgerIsBalanced() {
  const { rows } = await harness.pool.query(
    `SELECT journal_id, count(DISTINCT currency) AS currencies, sum(amount_minor) AS total
     FROM ledger_entries GROUP BY journal_id HAVING sum(amount_minor) <> 0 OR count(DISTINCT currency) <> 1`,
  );
  expect(rows).toEqual([]);
}

/** A sale whose refund window (24 h by default) has passed: its earnings are available. */
async function availableSale(
  seller: TestUser,
  overrides: Partial<EventData<'product.published'>> = {},
) {
  const sale = await sell(harness, { ownerId: seller.id, ...overrides });
  return { ...sale, earnings: await earningsOf(sale.purchaseId) };
}

describe('payout destinations', () => {
  it('lists banks, resolves the account name with the provider, and saves it sealed and masked', async () => {
    const seller = newSeller();
    const banks = await (await call(seller, 'GET', '/api/payouts/banks')).json();
    expect(banks.banks).toContainEqual({ code: '058', name: 'Guaranty Trust Bank' });
    // The sandbox lists the real Nigerian banks sellers use (issue 29), not a handful.
    expect(banks.banks.length).toBeGreaterThanOrEqual(25);
    for (const bank of [
      { code: '50515', name: 'Moniepoint MFB' },
      { code: '999991', name: 'PalmPay' },
      { code: '999992', name: 'OPay' },
      { code: '035', name: 'Wema Bank' },
      { code: '232', name: 'Sterling Bank' },
      { code: '221', name: 'Stanbic IBTC Bank' },
    ])
      expect(banks.banks).toContainEqual(bank);

    const unknown = await call(seller, 'POST', '/api/payouts/resolve-account', {
      bankCode: '058',
      accountNumber: '0123459999',
    });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error).toMatchObject({
      code: 'account_not_found',
      message: 'We could not find that account. Check the bank and the number.',
    });
    const malformed = await call(seller, 'POST', '/api/payouts/resolve-account', {
      bankCode: '058',
      accountNumber: '12345',
    });
    expect(malformed.status).toBe(400);

    const wrongName = await call(seller, 'PUT', '/api/payouts/destination', {
      method: 'bank',
      bankCode: '058',
      accountNumber: '0123456789',
      accountName: 'SOMEONE ELSE',
    });
    expect(wrongName.status).toBe(422);
    expect((await wrongName.json()).error.code).toBe('account_name_mismatch');

    const destination = await setBank(seller, '0123456789');
    expect(destination).toMatchObject({
      method: 'bank',
      label: 'Guaranty Trust Bank •••• 6789',
      accountNumberMasked: '•••• 6789',
      currencies: ['NGN'],
      payoutsHeldUntil: null,
    });
    expect(JSON.stringify(destination)).not.toContain('0123456789');
    const { rows } = await harness.pool.query(
      'SELECT row_to_json(d)::text AS row FROM payout_destinations d WHERE seller_id = $1',
      [seller.id],
    );
    expect(rows[0].row).not.toContain('0123456789');
    // The first destination is announced too (issue 30): a hijacker's is not silent.
    await waitFor(async () => (await mailTo(harness.pool, seller.email)).length === 1);
    expect((await mailTo(harness.pool, seller.email))[0]!.subject).toBe(
      'A payout destination was added to your Lockdrop account',
    );

    const fetched = await (await call(seller, 'GET', '/api/payouts/destination')).json();
    expect(fetched.destination.label).toBe('Guaranty Trust Bank •••• 6789');
    const stranger = await (await call(newSeller(), 'GET', '/api/payouts/destination')).json();
    expect(stranger.destination).toBeNull();
    const anonymous = await fetchJson(`${harness.url}/api/payouts/destination`);
    expect(anonymous.status).toBe(401);
  });

  it('a change e-mails the seller and holds payouts for 24 hours; Payoneer and Wise are validated', async () => {
    const seller = newSeller();
    await setBank(seller);
    const badEmail = await call(seller, 'PUT', '/api/payouts/destination', {
      method: 'payoneer',
      email: 'not-an-email',
    });
    expect(badEmail.status).toBe(400);
    const changed = await call(seller, 'PUT', '/api/payouts/destination', {
      method: 'wise',
      email: 'Ada@Example.com',
      accountId: '48213377',
    });
    expect(changed.status).toBe(200);
    const { destination } = await changed.json();
    expect(destination).toMatchObject({
      method: 'wise',
      emailMasked: 'a•••@example.com',
      accountIdMasked: '•••• 3377',
    });
    const heldFor = Date.parse(destination.payoutsHeldUntil) - Date.now();
    expect(heldFor).toBeGreaterThan(23 * HOUR);
    expect(heldFor).toBeLessThanOrEqual(24 * HOUR);
    await waitFor(async () => (await mailTo(harness.pool, seller.email)).length === 2);
    const [, mail] = await mailTo(harness.pool, seller.email);
    expect(mail!.subject).toBe('Your Lockdrop payout details were changed');
    expect(mail!.text_body).toContain('Guaranty Trust Bank •••• 6789');

    // A sale old enough to pay out, while the change is an hour old.
    const sale = await availableSale(seller, { currency: 'USD', priceMinor: 5_000 });
    await harness.pool.query(
      `UPDATE purchases SET paid_at = paid_at - interval '25 hours' WHERE id = $1`,
      [sale.purchaseId],
    );
    harness.clock.offsetMs = HOUR;
    expect((await balanceIn(seller, 'USD')).availableMinor).toBe(sale.earnings);
    const held = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(held.status).toBe(409);
    expect((await held.json()).error.code).toBe('payouts_held');
  });
});

describe('balances from the ledger', () => {
  it('keeps earnings pending through the refund window, then makes them available', async () => {
    const seller = newSeller();
    const { earnings } = await availableSale(seller);
    expect(await balanceIn(seller, 'NGN')).toMatchObject({
      pendingMinor: earnings,
      availableMinor: 0,
      inTransitMinor: 0,
      paidOutMinor: 0,
      minimumPayoutMinor: 100_000,
    });
    harness.clock.offsetMs = 23 * HOUR;
    expect((await balanceIn(seller, 'NGN')).availableMinor).toBe(0);
    harness.clock.offsetMs = 24 * HOUR + 60_000;
    expect(await balanceIn(seller, 'NGN')).toMatchObject({
      pendingMinor: 0,
      availableMinor: earnings,
    });
    const body = await balances(seller);
    expect(new Date(body.nextPayoutAt).getTime()).toBeGreaterThan(Date.now());
    await ledgerIsBalanced();
  });

  it('respects the holding period on top of the refund window', async () => {
    const held = await startHarness({ PAYOUT_HOLD_HOURS: '48' });
    try {
      const seller = newSeller();
      const sale = await sell(held, { ownerId: seller.id });
      const get = async () =>
        (
          await (
            await fetchJson(`${held.url}/api/payouts/balances`, {
              headers: { authorization: `Bearer ${await held.token(seller)}` },
            })
          ).json()
        ).balances[0];
      held.clock.offsetMs = 25 * HOUR;
      expect((await get()).availableMinor).toBe(0);
      held.clock.offsetMs = 73 * HOUR;
      const { rows } = await held.pool.query(
        'SELECT seller_earnings_minor AS e FROM purchases WHERE id = $1',
        [sale.purchaseId],
      );
      expect((await get()).availableMinor).toBe(rows[0].e);
    } finally {
      await held.close();
    }
  });
});

describe('sealed payout details (issue 30)', () => {
  const sealedOf = async (seller: TestUser) =>
    (
      await harness.pool.query<{ id: string; sealed_secret: string }>(
        'SELECT id, sealed_secret FROM payout_destinations WHERE seller_id = $1 AND replaced_at IS NULL',
        [seller.id],
      )
    ).rows[0]!;

  it("details copied into another seller's row do not open there: the payout is refused, not sent to the copied account", async () => {
    const attacker = newSeller();
    const victim = newSeller();
    await setBank(attacker, '0987654321');
    await setBank(victim, '0123456789');
    await availableSale(victim);
    harness.clock.offsetMs = 25 * HOUR;
    const [payout] = (await (await call(victim, 'POST', '/api/payouts/withdraw')).json()).payouts;

    // Someone who can write the table (not read the key) swaps in the attacker's sealed details.
    const victimRow = await sealedOf(victim);
    await harness.pool.query('UPDATE payout_destinations SET sealed_secret = $2 WHERE id = $1', [
      victimRow.id,
      (await sealedOf(attacker)).sealed_secret,
    ]);
    await expect(
      harness.bus.request('payouts.instruction', { payoutId: payout.id }, { timeoutMs: 5_000 }),
    ).rejects.toThrow();

    // Put back, the victim's own details open and the payout goes where they said.
    await harness.pool.query('UPDATE payout_destinations SET sealed_secret = $2 WHERE id = $1', [
      victimRow.id,
      victimRow.sealed_secret,
    ]);
    const instruction = await harness.bus.request(
      'payouts.instruction',
      { payoutId: payout.id },
      { timeoutMs: 5_000 },
    );
    expect(opened(payout.id, instruction)).toMatchObject({
      destination: { accountNumber: '0123456789' },
    });
  });

  it("a payout instruction travels sealed for its payout: A's reply does not open as B's, nor under another key", async () => {
    const first = newSeller();
    const second = newSeller();
    await setBank(first, '0123456789');
    await setBank(second, '0987654321');
    await availableSale(first);
    await availableSale(second);
    harness.clock.offsetMs = 25 * HOUR;
    const [payoutA] = (await (await call(first, 'POST', '/api/payouts/withdraw')).json()).payouts;
    const [payoutB] = (await (await call(second, 'POST', '/api/payouts/withdraw')).json()).payouts;
    const ask = (payoutId: string) =>
      harness.bus.request('payouts.instruction', { payoutId }, { timeoutMs: 5_000 });
    const replyA = await ask(payoutA.id);
    const replyB = await ask(payoutB.id);
    if (!replyA.send || !replyB.send) throw new Error('both payouts should be sendable');

    // Each opens for the payout it was asked about, with the worker's key.
    expect(opened(payoutA.id, replyA).destination).toMatchObject({ accountNumber: '0123456789' });
    expect(opened(payoutB.id, replyB).destination).toMatchObject({ accountNumber: '0987654321' });
    // A's answer replayed to the worker asking about B (whether or not it is relabelled) is refused.
    expect(() => opened(payoutB.id, replyA)).toThrow(/does not open/);
    expect(() => opened(payoutB.id, { ...replyA, payoutId: payoutB.id })).toThrow(/does not open/);
    // Sealed text with one byte changed, or opened with the at-rest key, opens to nothing.
    const flipped = withCiphertextByteFlipped(replyA.sealed);
    expect(() => opened(payoutA.id, { ...replyA, sealed: flipped })).toThrow(/does not open/);
    const atRest = createSecretBox(configSchema.parse({}).PAYOUT_ENCRYPTION_KEYS);
    expect(() => openPayoutInstruction(atRest, payoutA.id, replyA)).toThrow(/does not open/);
  });

  it('the re-seal command moves every row to the newest key, once, and leaves a row no key opens alone', async () => {
    const seller = newSeller();
    const tampered = newSeller();
    await setBank(seller, '0123456789');
    await setBank(tampered, '0111111111');
    const tamperedRow = await sealedOf(tampered);
    const broken = withCiphertextByteFlipped(tamperedRow.sealed_secret);
    await harness.pool.query('UPDATE payout_destinations SET sealed_secret = $2 WHERE id = $1', [
      tamperedRow.id,
      broken,
    ]);

    // Rotation: a new key first, the one in use second.
    const inUse = configSchema.parse({}).PAYOUT_ENCRYPTION_KEYS;
    const newKey = parseSecretKeys(`k2:${Buffer.alloc(32, 7).toString('base64')}`);
    const rotated = createSecretBox([...newKey, ...inUse]);
    const report = await resealDestinations(harness.pool, rotated);
    expect(report.unreadable).toContain(tamperedRow.id);
    expect((await sealedOf(tampered)).sealed_secret).toBe(broken);

    // The old key can go: the new one alone opens the row, bound to it.
    const row = await sealedOf(seller);
    expect(row.sealed_secret.startsWith('v2.k2.')).toBe(true);
    const newOnly = createSecretBox(newKey);
    expect(
      JSON.parse(newOnly.open(row.sealed_secret, `payout-destination:${seller.id}:${row.id}`)),
    ).toMatchObject({ accountNumber: '0123456789' });

    // Run again: nothing of this seller changes.
    await resealDestinations(harness.pool, rotated);
    expect((await sealedOf(seller)).sealed_secret).toBe(row.sealed_secret);
  });
});

describe('withdraw now and the payout state machine', () => {
  it('moves available → in transit → paid out with balanced journals, events and an e-mail', async () => {
    const seller = newSeller();
    await setBank(seller, '0123456789');
    const { earnings } = await availableSale(seller);
    harness.clock.offsetMs = 25 * HOUR;

    const withdrawn = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(withdrawn.status).toBe(202);
    const [payout] = (await withdrawn.json()).payouts;
    expect(payout).toMatchObject({
      status: 'created',
      amountMinor: earnings,
      currency: 'NGN',
      sourceCurrency: 'NGN',
      fxRate: null,
      trigger: 'withdraw',
      destinationLabel: 'Guaranty Trust Bank •••• 6789',
    });
    expect(await balanceIn(seller, 'NGN')).toMatchObject({
      availableMinor: 0,
      inTransitMinor: earnings,
    });
    await waitFor(async () =>
      harness.published.some((e) => e.type === 'payout.requested' && e.data.payoutId === payout.id),
    );
    const again = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('withdraw_too_soon');
    expect((await balances(seller)).withdrawAvailableAt).not.toBeNull();

    // The worker asks where to send it: the account number is decrypted for this answer only.
    const reply = await harness.bus.request(
      'payouts.instruction',
      { payoutId: payout.id },
      { timeoutMs: 5_000 },
    );
    // On the bus the destination is sealed: no account number in the clear.
    expect(JSON.stringify(reply)).not.toContain('0123456789');
    expect(opened(payout.id, reply)).toMatchObject({
      send: true,
      amountMinor: earnings,
      currency: 'NGN',
      destination: {
        method: 'bank',
        bankCode: '058',
        accountNumber: '0123456789',
        accountName: expect.any(String),
      },
    });

    await completeTransfer(payout.id, 'successful');
    expect(await balanceIn(seller, 'NGN')).toMatchObject({
      pendingMinor: 0,
      availableMinor: 0,
      inTransitMinor: 0,
      paidOutMinor: earnings,
    });
    await waitFor(async () =>
      harness.published.some((e) => e.type === 'payout.paid' && e.data.payoutId === payout.id),
    );
    await waitFor(async () =>
      // The harness takes sandbox payments: test money, whose payout e-mail says so.
      (await mailTo(harness.pool, seller.email)).some((m) =>
        m.subject.startsWith('[TEST] Payout sent'),
      ),
    );
    const done = await harness.bus.request(
      'payouts.instruction',
      { payoutId: payout.id },
      { timeoutMs: 5_000 },
    );
    expect(done).toEqual({ send: false, status: 'paid' });

    // A replayed or contradicting report changes nothing once the payout is final.
    const before = await harness.pool.query('SELECT count(*)::int AS n FROM ledger_entries');
    const lateFailure = createEvent(
      'payout.transfer_completed',
      {
        payoutId: payout.id,
        provider: 'sandbox',
        providerTransferId: 'T-other',
        status: 'failed',
        reason: 'late',
      },
      { correlationId: payout.id },
    );
    await harness.publish(lateFailure);
    // The watermark: the report was handled (its effect, if any, committed with it).
    await processedBy(harness.pool, 'payments.payout-completed', lateFailure.id);
    const after = await harness.pool.query('SELECT count(*)::int AS n FROM ledger_entries');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const history = await (await call(seller, 'GET', '/api/payouts')).json();
    expect(history.payouts[0]).toMatchObject({ id: payout.id, status: 'paid' });
    const csv = await call(seller, 'GET', '/api/payouts/export.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toContain('"status","amount","currency"');
    expect(text).toContain(`"${payout.id}"`);
    await ledgerIsBalanced();
  });

  it('a failed transfer puts the money back to available and tells the seller why', async () => {
    const seller = newSeller();
    await setBank(seller, '0123450000');
    const { earnings } = await availableSale(seller);
    harness.clock.offsetMs = 25 * HOUR;
    const [payout] = (await (await call(seller, 'POST', '/api/payouts/withdraw')).json()).payouts;
    await completeTransfer(payout.id, 'failed', 'The bank rejected the account');
    expect(await balanceIn(seller, 'NGN')).toMatchObject({
      availableMinor: earnings,
      inTransitMinor: 0,
      paidOutMinor: 0,
    });
    const history = await (await call(seller, 'GET', '/api/payouts')).json();
    expect(history.payouts[0]).toMatchObject({
      status: 'failed',
      failureReason: 'The bank rejected the account',
    });
    await waitFor(async () =>
      (await mailTo(harness.pool, seller.email)).some(
        (m) =>
          m.subject.startsWith('[TEST] Payout failed') &&
          m.text_body.includes('rejected the account'),
      ),
    );
    await ledgerIsBalanced();
  });

  it('says why nothing can be withdrawn: no destination, below the minimum, nothing available', async () => {
    const seller = newSeller();
    const none = await call(seller, 'POST', '/api/payouts/withdraw');
    expect((await none.json()).error.code).toBe('no_destination');
    await setBank(seller);
    const nothing = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(nothing.status).toBe(409);
    expect((await nothing.json()).error.code).toBe('nothing_to_withdraw');
    await availableSale(seller, { priceMinor: 50_000 });
    harness.clock.offsetMs = 25 * HOUR;
    const small = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(small.status).toBe(409);
    expect((await small.json()).error).toMatchObject({
      code: 'below_minimum',
      message: expect.stringMatching(/below the minimum payout \(₦1,000\)/),
    });
  });
});

describe('payout runs', () => {
  it('two deliveries of a run, and two runs at once, make one payout per seller and currency', async () => {
    const seller = newSeller();
    await setBank(seller);
    const { earnings } = await availableSale(seller);
    harness.clock.offsetMs = 25 * HOUR;
    const run = async (runId: string) => {
      const due = createEvent(
        'payout.run_due',
        { runId, dueAt: new Date().toISOString() },
        { correlationId: runId },
      );
      await harness.publish(due);
      return due;
    };
    const runId = `scheduled:${randomUUID()}`;
    const runs = await Promise.all([run(runId), run(runId), run(`scheduled:${randomUUID()}`)]);
    // The watermark: the run consumer has handled all three deliveries.
    for (const delivered of runs)
      await processedBy(harness.pool, 'payments.payout-runs', delivered.id);
    expect((await balanceIn(seller, 'NGN')).inTransitMinor).toBe(earnings);
    const { rows } = await harness.pool.query(
      'SELECT amount_minor FROM payouts WHERE seller_id = $1',
      [seller.id],
    );
    expect(rows).toEqual([{ amount_minor: earnings }]);
    await ledgerIsBalanced();
  });

  it('converts a balance the destination cannot receive at payout time, in one journal per currency', async () => {
    const seller = newSeller();
    await setBank(seller);
    await harness.publish(
      createEvent(
        'fx.rates.updated',
        { source: 'test', rates: [{ from: 'USD', to: 'NGN', rate: '1550.5' }] },
        { correlationId: randomUUID() },
      ),
    );
    await waitFor(async () => {
      const { rows } = await harness.pool.query(
        `SELECT 1 FROM exchange_rates WHERE from_currency = 'USD' AND rate = '1550.5'`,
      );
      return rows.length === 1;
    });
    const { earnings } = await availableSale(seller, { currency: 'USD', priceMinor: 5_000 });
    harness.clock.offsetMs = 25 * HOUR;
    const [payout] = (await (await call(seller, 'POST', '/api/payouts/withdraw')).json()).payouts;
    expect(payout).toMatchObject({
      currency: 'NGN',
      amountMinor: Math.round((earnings * 1550.5 * 100) / 100),
      sourceCurrency: 'USD',
      sourceAmountMinor: earnings,
      fxRate: '1550.5',
    });
    const journals = await harness.pool.query(
      `SELECT currency, account, amount_minor FROM ledger_entries WHERE payout_id = $1 ORDER BY id`,
      [payout.id],
    );
    expect(journals.rows).toEqual([
      { currency: 'USD', account: 'seller_available', amount_minor: earnings },
      { currency: 'USD', account: 'fx_conversion', amount_minor: -earnings },
      { currency: 'NGN', account: 'fx_conversion', amount_minor: payout.amountMinor },
      { currency: 'NGN', account: 'seller_in_transit', amount_minor: -payout.amountMinor },
    ]);
    expect(await balanceIn(seller, 'USD')).toMatchObject({ availableMinor: 0 });
    expect(await balanceIn(seller, 'NGN')).toMatchObject({ inTransitMinor: payout.amountMinor });
    await ledgerIsBalanced();
  });

  it('a refund after the payout makes the balance negative, and the next payout recovers it', async () => {
    const seller = newSeller();
    await setBank(seller);
    const first = await availableSale(seller);
    harness.clock.offsetMs = 25 * HOUR;
    const [payout] = (await (await call(seller, 'POST', '/api/payouts/withdraw')).json()).payouts;
    await completeTransfer(payout.id, 'successful');
    // Support refunds the sale after it was paid out (the seller's own window has closed).
    await harness.pool.query(
      `UPDATE purchases SET paid_at = paid_at + interval '25 hours' WHERE id = $1`,
      [first.purchaseId],
    );
    const refunded = await call(seller, 'POST', `/api/purchases/${first.purchaseId}/refund`);
    expect(refunded.status).toBe(200);
    const { rows: refundLines } = await harness.pool.query(
      `SELECT -sum(amount_minor)::bigint AS seller FROM ledger_entries
       WHERE purchase_id = $1 AND kind = 'refund' AND account = 'seller_available'`,
      [first.purchaseId],
    );
    const owed = refundLines[0].seller as number;
    expect(owed).toBeLessThan(0);
    expect((await balanceIn(seller, 'NGN')).availableMinor).toBe(owed);

    const second = await availableSale(seller, { priceMinor: 1_000_000 });
    harness.clock.offsetMs = 50 * HOUR;
    const run = `scheduled:${randomUUID()}`;
    await harness.publish(
      createEvent(
        'payout.run_due',
        { runId: run, dueAt: new Date().toISOString() },
        { correlationId: run },
      ),
    );
    await waitFor(async () => (await balanceIn(seller, 'NGN')).inTransitMinor > 0);
    expect(await balanceIn(seller, 'NGN')).toMatchObject({
      availableMinor: 0,
      inTransitMinor: second.earnings + owed,
    });
    await ledgerIsBalanced();
  });
});

describe('the ledger under any order of sales, refunds and payouts', () => {
  it('balances every journal and never pays out more than was earned', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.constantFrom('sale', 'refund', 'mature', 'withdraw', 'settle_ok', 'settle_fail'),
          {
            minLength: 3,
            maxLength: 8,
          },
        ),
        async (steps) => {
          const seller = newSeller();
          await setBank(seller);
          harness.clock.offsetMs = 0;
          const sales: string[] = [];
          const open: string[] = [];
          for (const step of steps) {
            if (step === 'sale') sales.push((await availableSale(seller)).purchaseId);
            if (step === 'refund' && sales.length > 0) {
              // Within the window only; later sales may be past it after 'mature'.
              await call(seller, 'POST', `/api/purchases/${sales.pop()}/refund`);
            }
            if (step === 'mature') harness.clock.offsetMs += 25 * HOUR;
            if (step === 'withdraw') {
              harness.clock.offsetMs += 25 * HOUR;
              const response = await call(seller, 'POST', '/api/payouts/withdraw');
              if (response.status === 202)
                open.push(...(await response.json()).payouts.map((p: { id: string }) => p.id));
            }
            if ((step === 'settle_ok' || step === 'settle_fail') && open.length > 0)
              await completeTransfer(open.shift()!, step === 'settle_ok' ? 'successful' : 'failed');
          }
          await ledgerIsBalanced();
          const { rows } = await harness.pool.query(
            `SELECT
               coalesce(sum(seller_earnings_minor) FILTER (WHERE status <> 'refunded'), 0)::bigint AS kept,
               (SELECT coalesce(sum(amount_minor), 0) FROM payouts WHERE seller_id = $1 AND status <> 'failed')::bigint AS out
             FROM purchases WHERE seller_id = $1`,
            [seller.id],
          );
          const b = await balanceIn(seller, 'NGN');
          if (b) {
            // Everything the seller is owed or was sent adds up to what the ledger credited them.
            const { rows: credited } = await harness.pool.query(
              `SELECT -coalesce(sum(amount_minor), 0)::bigint AS total FROM ledger_entries
               WHERE seller_id = $1 AND kind IN ('payment', 'refund')`,
              [seller.id],
            );
            expect(b.pendingMinor + b.availableMinor + b.inTransitMinor + b.paidOutMinor).toBe(
              credited[0].total,
            );
          }
          expect(rows[0].out).toBeLessThanOrEqual(rows[0].kept);
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);
});

describe('transfer webhooks', () => {
  const sign = (raw: string) => ({
    'content-type': 'application/json',
    'verif-hash': 'lockdrop-sandbox-webhook-secret',
    'flutterwave-signature': createHmac('sha256', 'lockdrop-sandbox-webhook-secret')
      .update(raw)
      .digest('base64'),
  });

  it('refuses a forged transfer.completed, and asks the worker to check a genuine one', async () => {
    const seller = newSeller();
    await setBank(seller);
    await availableSale(seller);
    harness.clock.offsetMs = 25 * HOUR;
    const [payout] = (await (await call(seller, 'POST', '/api/payouts/withdraw')).json()).payouts;
    const body = JSON.stringify({
      event: 'transfer.completed',
      'event.type': 'Transfer',
      data: { id: 33286, status: 'SUCCESSFUL', reference: payout.id, amount: 30020 },
    });
    const forged = await fetchJson(`${harness.url}/api/webhooks/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'verif-hash': 'guess' },
      body,
    });
    expect(forged.status).toBe(401);
    const genuine = await fetchJson(`${harness.url}/api/webhooks/sandbox`, {
      method: 'POST',
      headers: sign(body),
      body,
    });
    expect(genuine.status).toBe(200);
    expect((await genuine.json()).outcome).toBe('transfer_reported');
    await waitFor(async () =>
      harness.published.some(
        (e) => e.type === 'payout.transfer_reported' && e.data.payoutId === payout.id,
      ),
    );
    // The body is not the outcome: the payout is still in transit until the provider's API says so.
    const { rows } = await harness.pool.query('SELECT status FROM payouts WHERE id = $1', [
      payout.id,
    ]);
    expect(rows[0].status).toBe('created');
  });
});

describe('retention', () => {
  it('drops settled provider notifications after 90 days and keeps unsettled ones and every money record', async () => {
    const old = new Date(Date.now() - 91 * 24 * HOUR);
    const { rows } = await harness.pool.query(
      // The second gave up after its last attempt and waits for an operator: it must stay.
      `INSERT INTO provider_events (provider, event_key, event_type, payload, status, received_at, attempts) VALUES
         ('sandbox', $1, 'charge.completed', '{}', 'processed', $3, 1),
         ('sandbox', $2, 'charge.completed', '{}', 'retry', $3, 20)
       RETURNING id, status`,
      [`old-${randomUUID()}`, `parked-${randomUUID()}`, old],
    );
    const purchases = await harness.pool.query('SELECT count(*)::int AS n FROM purchases');
    await harness.publish(
      createEvent(
        'retention.due',
        { dueAt: new Date().toISOString() },
        { correlationId: randomUUID() },
      ),
    );
    await waitFor(async () => {
      const left = await harness.pool.query(
        'SELECT status FROM provider_events WHERE id = ANY($1)',
        [rows.map((row) => row.id)],
      );
      return left.rows.length === 1 && left.rows[0].status === 'retry';
    });
    expect((await harness.pool.query('SELECT count(*)::int AS n FROM purchases')).rows[0].n).toBe(
      purchases.rows[0].n,
    );
  });
});

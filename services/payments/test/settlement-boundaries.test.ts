import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeFlutterwave, type FakeFlutterwave } from './fake-flutterwave.js';
import { browser, fetchJson, startHarness, waitFor, type Harness } from './support.js';

/**
 * The settlement rule at its edges (issue 30, "Tests that can catch these"): what the provider's
 * verify API reports is compared with the checkout, through the real webhook → store → settler
 * path against the Flutterwave fake. Where our own unique constraints (one purchase per `tx_ref`,
 * one mismatch per transaction and reasons) would cap a count at one, the count is taken from
 * the provider's own records: every successful charge it holds must be accounted for exactly
 * once — as the sale, or as a mismatch support hands back.
 */
let fake: FakeFlutterwave;
let harness: Harness;

beforeAll(async () => {
  fake = await startFakeFlutterwave();
  harness = await startHarness({ ...fake.env, PUBLIC_URL: 'https://lockdrop.test' });
});
afterAll(async () => {
  await harness?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.failures.verify = 'none';
  fake.verifyFailuresFor.clear();
});

async function startCheckout(body: Record<string, unknown>) {
  const response = await browser(harness.url).postJson('/api/checkout', {
    buyerEmail: `buyer-${randomUUID()}@example.com`,
    ...body,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { txRef } = (await response.json()) as { txRef: string };
  const { rows } = await harness.pool.query<{ amount_minor: number; currency: string }>(
    'SELECT amount_minor, currency FROM checkouts WHERE tx_ref = $1',
    [txRef],
  );
  return {
    txRef,
    expected: { amountMinor: Number(rows[0]!.amount_minor), currency: rows[0]!.currency },
  };
}

/** The provider took this charge; its webhook arrives and the settler acts on what verify says. */
async function charged(txRef: string, options: Parameters<FakeFlutterwave['pay']>[1] = {}) {
  const transaction = fake.pay(txRef, options);
  const raw = JSON.stringify(fake.envelopeWebhook(transaction));
  const response = await fetchJson(`${harness.url}/api/webhooks/flutterwave`, {
    method: 'POST',
    headers: fake.signedHeaders(raw),
    body: raw,
  });
  expect(response.status).toBe(200);
  await waitFor(async () => {
    const { rows } = await harness.pool.query<{ status: string }>(
      'SELECT status FROM provider_events WHERE event_key LIKE $1',
      [`%:${transaction.id}:%`],
    );
    return rows.length === 1 && rows[0]!.status === 'processed';
  });
  return transaction;
}

async function purchasesOf(txRef: string) {
  const { rows } = await harness.pool.query<{
    status: string;
    amount_minor: number;
    currency: string;
    provider_transaction_id: string;
    seller_earnings_minor: number;
  }>(
    `SELECT status, amount_minor, currency, provider_transaction_id, seller_earnings_minor
     FROM purchases WHERE tx_ref = $1`,
    [txRef],
  );
  return rows;
}

async function mismatchesOf(txRef: string) {
  const { rows } = await harness.pool.query<{
    transaction_id: string;
    reasons: string[];
    expected: { amountMinor: number; currency: string };
    reported: { amountMinor: number; currency: string };
  }>(
    `SELECT m.transaction_id, m.reasons, m.expected, m.reported
     FROM payment_mismatches m JOIN checkouts c ON c.id = m.checkout_id
     WHERE c.tx_ref = $1 ORDER BY m.id`,
    [txRef],
  );
  return rows;
}

const paidEventsFor = (txRef: string) =>
  harness.published.filter((event) => event.type === 'purchase.paid' && event.data.txRef === txRef);

/**
 * Every successful charge the provider holds for this `tx_ref` is accounted for exactly once:
 * the one the purchase was made from, or a mismatch recorded to hand it back. Counted on the
 * provider's side, so a second charge swallowed by our unique `tx_ref` cannot hide.
 */
async function everyChargeAccountedFor(txRef: string) {
  const purchases = await purchasesOf(txRef);
  const mismatches = await mismatchesOf(txRef);
  return fake
    .charges(txRef)
    .filter((charge) => charge.status === 'successful')
    .map((charge) => {
      const id = String(charge.id);
      const sale = purchases.filter((p) => p.provider_transaction_id === id).length;
      const handBack = mismatches.filter(
        (m) => m.transaction_id === id && !m.reasons.includes('overpaid'),
      ).length;
      return { id, accountedFor: sale + handBack };
    });
}

async function newCode(ownerId: string, percentOff: number) {
  const token = await harness.token({
    id: ownerId,
    email: `seller-${ownerId}@example.com`,
    emailVerified: true,
  });
  const code = `EDGE${randomUUID().slice(0, 6)}`.toUpperCase();
  const response = await fetchJson(`${harness.url}/api/discount-codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ code, kind: 'percent', percentOff }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return code;
}

/** Major units of `minor` kobo/cents, as Flutterwave reports amounts. */
const major = (minor: number) => minor / 100;

describe('settlement boundaries against the Flutterwave fake', () => {
  it('one kobo short is no sale: nothing unlocks and the charge is recorded to hand back', async () => {
    const product = await harness.publishProduct();
    const { txRef, expected } = await startCheckout({ productId: product.productId });
    expect(expected).toEqual({ amountMinor: 500_000, currency: 'NGN' });
    const charge = await charged(txRef, { amount: major(expected.amountMinor - 1) });

    expect(await purchasesOf(txRef)).toEqual([]);
    expect(paidEventsFor(txRef)).toEqual([]);
    // Support's record of what to refund: the provider's transaction, what was due, what came.
    expect(await mismatchesOf(txRef)).toEqual([
      {
        transaction_id: String(charge.id),
        reasons: ['amount'],
        expected: expect.objectContaining({ amountMinor: 500_000, currency: 'NGN' }),
        reported: expect.objectContaining({ amountMinor: 499_999, currency: 'NGN' }),
      },
    ]);
    expect(await everyChargeAccountedFor(txRef)).toEqual([
      { id: String(charge.id), accountedFor: 1 },
    ]);
  });

  it('exactly the amount is a sale at the checkout price, with no mismatch', async () => {
    const product = await harness.publishProduct();
    const { txRef } = await startCheckout({ productId: product.productId });
    const charge = await charged(txRef, { amount: 5000 });

    expect(await purchasesOf(txRef)).toEqual([
      expect.objectContaining({
        status: 'paid',
        amount_minor: 500_000,
        currency: 'NGN',
        provider_transaction_id: String(charge.id),
      }),
    ]);
    await waitFor(async () => paidEventsFor(txRef).length === 1);
    expect(await mismatchesOf(txRef)).toEqual([]);
  });

  it('overpaid: the buyer gets the file, the seller earns on the price only, and the excess is recorded to hand back', async () => {
    const product = await harness.publishProduct();
    const { txRef } = await startCheckout({ productId: product.productId });
    const charge = await charged(txRef, { amount: 5000.01 });

    const [purchase] = await purchasesOf(txRef);
    // A sale at the checkout's amount: the extra kobo is not the seller's earnings.
    expect(purchase).toMatchObject({
      status: 'paid',
      amount_minor: 500_000,
      // As for an exact payment: 5 % platform fee and the provider's NGN 70 app fee off NGN 5,000.
      seller_earnings_minor: 468_000,
      provider_transaction_id: String(charge.id),
    });
    await waitFor(async () => paidEventsFor(txRef).length === 1);
    expect(await mismatchesOf(txRef)).toEqual([
      {
        transaction_id: String(charge.id),
        reasons: ['overpaid'],
        expected: expect.objectContaining({ amountMinor: 500_000 }),
        reported: expect.objectContaining({ amountMinor: 500_001 }),
      },
    ]);
  });

  it('the right number in another currency is no sale', async () => {
    const product = await harness.publishProduct();
    const { txRef } = await startCheckout({ productId: product.productId });
    // NGN 5,000 asked; the provider took 5,000 US dollars' worth in USD — more, yet not ours to judge.
    const charge = await charged(txRef, { amount: 5000, currency: 'USD' });

    expect(await purchasesOf(txRef)).toEqual([]);
    expect(paidEventsFor(txRef)).toEqual([]);
    expect(await mismatchesOf(txRef)).toEqual([
      expect.objectContaining({ transaction_id: String(charge.id), reasons: ['currency'] }),
    ]);
  });

  it('a second successful charge for the same tx_ref is one purchase, and the second charge is recorded to hand back', async () => {
    const product = await harness.publishProduct();
    const { txRef } = await startCheckout({ productId: product.productId });
    const first = await charged(txRef);
    // The buyer paid again on the same page (a second card attempt the provider also took).
    const second = await charged(txRef);

    expect(fake.charges(txRef).filter((c) => c.status === 'successful')).toHaveLength(2);
    expect(await purchasesOf(txRef)).toEqual([
      expect.objectContaining({ status: 'paid', provider_transaction_id: String(first.id) }),
    ]);
    expect(await mismatchesOf(txRef)).toEqual([
      expect.objectContaining({
        transaction_id: String(second.id),
        reasons: ['duplicate_payment'],
      }),
    ]);
    // The provider's two charges: one sale, one hand-back — none lost, none counted twice.
    expect(await everyChargeAccountedFor(txRef)).toEqual([
      { id: String(first.id), accountedFor: 1 },
      { id: String(second.id), accountedFor: 1 },
    ]);
    // One receipt's worth of value: one purchase.paid, however many charges.
    await waitFor(async () => paidEventsFor(txRef).length === 1);
    const { rows } = await harness.pool.query(
      `SELECT count(*)::int AS n FROM ledger_entries l JOIN purchases p ON p.id = l.purchase_id
       WHERE p.tx_ref = $1 AND l.kind = 'payment' AND l.account = 'buyer_payments'`,
      [txRef],
    );
    expect(rows[0].n).toBe(1);
  });

  it('a discounted checkout one kobo under its discounted total is no sale', async () => {
    const product = await harness.publishProduct();
    const code = await newCode(product.ownerId, 10);
    const { txRef, expected } = await startCheckout({
      productId: product.productId,
      discountCode: code,
    });
    // The rule is the checkout's own amount (NGN 4,500 after 10 % off), not the list price.
    expect(expected.amountMinor).toBe(450_000);
    const charge = await charged(txRef, { amount: major(expected.amountMinor - 1) });

    expect(await purchasesOf(txRef)).toEqual([]);
    expect(await mismatchesOf(txRef)).toEqual([
      expect.objectContaining({
        transaction_id: String(charge.id),
        reasons: ['amount'],
        reported: expect.objectContaining({ amountMinor: 449_999 }),
      }),
    ]);

    // And the discounted total itself is a sale at that total.
    const exact = await startCheckout({ productId: product.productId, discountCode: code });
    await charged(exact.txRef, { amount: major(exact.expected.amountMinor) });
    expect(await purchasesOf(exact.txRef)).toEqual([
      expect.objectContaining({ status: 'paid', amount_minor: 450_000 }),
    ]);
  });

  it('pay what you want: one kobo under the amount the buyer chose is no sale, even above the minimum', async () => {
    const product = await harness.publishProduct({
      priceMinor: 500_000,
      minimumPriceMinor: 200_000,
    });
    const { txRef, expected } = await startCheckout({
      productId: product.productId,
      amount: '3000',
    });
    expect(expected.amountMinor).toBe(300_000);
    // NGN 2,999.99: well above the NGN 2,000 minimum, but less than this checkout asked for.
    const charge = await charged(txRef, { amount: major(expected.amountMinor - 1) });

    expect(await purchasesOf(txRef)).toEqual([]);
    expect(paidEventsFor(txRef)).toEqual([]);
    expect(await mismatchesOf(txRef)).toEqual([
      expect.objectContaining({ transaction_id: String(charge.id), reasons: ['amount'] }),
    ]);
  });
});

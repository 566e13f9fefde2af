import { randomUUID } from 'node:crypto';
import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  browser,
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
 * Issue 30, item 8, at payments: rates older than FX_MAX_RATE_AGE_HOURS are not converted with
 * (checkout then sells only in the product's currency, payouts wait), FX_SPREAD_BPS is the margin
 * on a conversion, and a failed converted payout goes back in the currency it was earned in.
 */
let harness: Harness;
const HOUR = 3_600_000;

beforeAll(async () => {
  harness = await startHarness({ FX_MAX_RATE_AGE_HOURS: '48', FX_SPREAD_BPS: '200' });
});
afterAll(() => harness?.close());
beforeEach(() => {
  harness.clock.offsetMs = 0;
});

/** Publishes one USD→NGN rate dated `occurredAt` and waits until payments stored it. */
async function usdToNgn(rate: string, occurredAt: Date) {
  await harness.publish(
    createEvent(
      'fx.rates.updated',
      { source: 'test', rates: [{ from: 'USD', to: 'NGN', rate }] },
      { correlationId: randomUUID(), occurredAt },
    ),
  );
  await waitFor(async () => {
    const { rows } = await harness.pool.query(
      `SELECT 1 FROM exchange_rates WHERE from_currency = 'USD' AND to_currency = 'NGN' AND rate = $1`,
      [rate],
    );
    return rows.length === 1;
  });
}

async function quote(body: Record<string, unknown>) {
  const response = await browser(harness.url).postJson('/api/checkout/quote', body);
  return { status: response.status, body: await response.json() };
}

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  callAs(harness, user, method, path, body);

/** A bank (NGN-only) destination, so a USD balance is converted at payout time. */
const setBank = (seller: TestUser) => saveBankDestination(harness, seller, '0123450000');

async function usdEarnings(seller: TestUser) {
  const sale = await sell(harness, { ownerId: seller.id, currency: 'USD', priceMinor: 5_000 });
  const { rows } = await harness.pool.query(
    'SELECT seller_earnings_minor AS e FROM purchases WHERE id = $1',
    [sale.purchaseId],
  );
  return rows[0].e as number;
}

const balanceIn = async (seller: TestUser, currency: string) =>
  (await (await call(seller, 'GET', '/api/payouts/balances')).json()).balances.find(
    (balance: { currency: string }) => balance.currency === currency,
  );

describe('rate age', () => {
  it('a product page quote in another currency is refused on rates older than the bound, then works on fresh ones', async () => {
    const product = await harness.publishProduct({ currency: 'USD', priceMinor: 1_000 });
    await usdToNgn('1400', new Date(Date.now() - 49 * HOUR));
    const stale = await quote({ productId: product.productId, currency: 'NGN' });
    expect(stale.status).toBe(400);
    expect(stale.body.error.code).toBe('currency_not_supported');
    // The product's own currency is always sold.
    expect((await quote({ productId: product.productId, currency: 'USD' })).status).toBe(200);

    await usdToNgn('1500', new Date(Date.now() - HOUR));
    const fresh = await quote({ productId: product.productId, currency: 'NGN' });
    expect(fresh.status).toBe(200);
    // USD 10.00 × 1500 = NGN 15,000.00, plus the 2 % spread.
    expect(fresh.body.total.amountMinor).toBe(1_530_000);
  });
});

describe('payouts in another currency', () => {
  it('wait while the rates are stale, convert at fresh ones less the spread, and a failure returns USD, not NGN', async () => {
    const seller = newSeller();
    await setBank(seller);
    const earnings = await usdEarnings(seller);
    // Payments' clock 100 hours on: the sale is available, and rates are dated against it.
    harness.clock.offsetMs = 100 * HOUR;
    await usdToNgn('1000', new Date(Date.now() + HOUR)); // 99 hours old: too old to use
    const waiting = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(waiting.status).toBe(409);
    expect((await balanceIn(seller, 'USD')).availableMinor).toBe(earnings);

    await usdToNgn('1600', new Date(Date.now() + 90 * HOUR)); // 10 hours old
    const response = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(response.status).toBe(202);
    const [payout] = (await response.json()).payouts;
    // 1 cent is NGN 16.00 (1,600 kobo); less the 2 % spread, rounded down.
    const converted = earnings * 1_600;
    expect(payout).toMatchObject({
      currency: 'NGN',
      sourceCurrency: 'USD',
      sourceAmountMinor: earnings,
      amountMinor: Math.floor((converted * 9_800) / 10_000),
      fxRate: '1568',
    });

    // Plays the worker: the bank refused the transfer, on the provider's word.
    const providerTransferId = `T-${payout.id.slice(0, 8)}`;
    await harness.publish(
      createEvent(
        'payout.transfer_submitted',
        { payoutId: payout.id, provider: 'sandbox', providerTransferId },
        { correlationId: payout.id },
      ),
    );
    await harness.publish(
      createEvent(
        'payout.transfer_completed',
        {
          payoutId: payout.id,
          provider: 'sandbox',
          providerTransferId,
          status: 'failed',
          reason: 'Check your account number',
          providerStatus: 'failed',
        },
        { correlationId: payout.id },
      ),
    );
    await waitFor(async () => {
      const { rows } = await harness.pool.query('SELECT status FROM payouts WHERE id = $1', [
        payout.id,
      ]);
      return rows[0]?.status === 'failed';
    });
    expect(await balanceIn(seller, 'USD')).toMatchObject({
      availableMinor: earnings,
      inTransitMinor: 0,
    });
    expect(await balanceIn(seller, 'NGN')).toMatchObject({ availableMinor: 0, inTransitMinor: 0 });
    const unbalanced = await harness.pool.query(
      `SELECT journal_id FROM ledger_entries GROUP BY journal_id
       HAVING sum(amount_minor) <> 0 OR count(DISTINCT currency) <> 1`,
    );
    expect(unbalanced.rows).toEqual([]);
  });
});

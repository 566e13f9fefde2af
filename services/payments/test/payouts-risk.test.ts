import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEvent } from '@lockdrop/contracts';
import { loadConfig } from '@lockdrop/config';
import { configSchema } from '../src/config.js';
import { newSellerRules } from '../src/modules/payouts/index.js';
import {
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
 * Issue 30, item 3: fraud must not cash out before chargebacks can land. With the production
 * rules switched on: a new seller's earnings wait 7 more days (shown with their date on the
 * balances API), no payout in any currency while any balance is negative, and a new seller's
 * first payouts are at most one a week.
 */
let harness: Harness;
const HOUR = 3_600_000;

beforeAll(async () => {
  harness = await startHarness({
    PUBLIC_URL: 'http://shop.test',
    PAYOUT_NEW_SELLER_HOLD_HOURS: '168',
    PAYOUT_NEW_SELLER_DAYS: '30',
    PAYOUT_NEW_SELLER_PAYOUTS: '2',
    PAYOUT_NEW_SELLER_INTERVAL_HOURS: '168',
  });
});
afterAll(() => harness?.close());
beforeEach(() => {
  harness.clock.offsetMs = 0;
});

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  callAs(harness, user, method, path, body);

async function sellerWithBank(): Promise<TestUser> {
  const seller = newSeller();
  await saveBankDestination(harness, seller);
  // Destination changes hold payouts for 24 h; this seller's destination is old.
  await harness.pool.query(
    'UPDATE payout_destinations SET payouts_held_until = NULL WHERE seller_id = $1',
    [seller.id],
  );
  return seller;
}

async function sale(seller: TestUser, overrides = {}) {
  const sold = await sell(harness, { ownerId: seller.id, ...overrides });
  const { rows } = await harness.pool.query(
    'SELECT seller_earnings_minor::int AS e, paid_at FROM purchases WHERE id = $1',
    [sold.purchaseId],
  );
  return { ...sold, earnings: rows[0].e as number, paidAt: rows[0].paid_at as Date };
}

/** Makes a seller's sales `days` older, as if they had been selling that long. */
const age = (purchaseId: string, days: number) =>
  harness.pool.query(
    `UPDATE purchases SET paid_at = paid_at - make_interval(days => $2) WHERE id = $1`,
    [purchaseId, days],
  );

async function balances(seller: TestUser) {
  const response = await call(seller, 'GET', '/api/payouts/balances');
  expect(response.status).toBe(200);
  return response.json();
}

async function paid(payoutId: string) {
  await harness.publish(
    createEvent(
      'payout.transfer_completed',
      {
        payoutId,
        provider: 'sandbox',
        providerTransferId: `T-${payoutId.slice(0, 8)}`,
        status: 'successful',
        reason: null,
        providerStatus: 'successful',
      },
      { correlationId: payoutId },
    ),
  );
  await waitFor(async () => {
    const { rows } = await harness.pool.query('SELECT status FROM payouts WHERE id = $1', [
      payoutId,
    ]);
    return rows[0]?.status === 'paid';
  });
}

describe('new sellers', () => {
  it("hold a new seller's earnings 7 more days and say when they become available", async () => {
    const seller = await sellerWithBank();
    const { earnings, paidAt } = await sale(seller);
    harness.clock.offsetMs = 25 * HOUR;
    const early = await balances(seller);
    expect(early.balances[0]).toMatchObject({ pendingMinor: earnings, availableMinor: 0 });
    expect(early.releases).toEqual([
      {
        currency: early.balances[0].currency,
        amountMinor: earnings,
        availableAt: new Date(paidAt.getTime() + 24 * HOUR + 168 * HOUR).toISOString(),
      },
    ]);
    const withdraw = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(withdraw.status).toBe(409);
    expect((await withdraw.json()).error.code).toBe('nothing_to_withdraw');

    harness.clock.offsetMs = 24 * HOUR + 168 * HOUR + HOUR;
    expect((await balances(seller)).balances[0]).toMatchObject({
      pendingMinor: 0,
      availableMinor: earnings,
    });
    expect((await balances(seller)).releases).toEqual([]);
  });

  it('limit first payouts to one a week, and lift the hold for sales after the first 30 days', async () => {
    const seller = await sellerWithBank();
    const first = await sale(seller);
    await age(first.purchaseId, 40);
    const firstPayout = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(firstPayout.status).toBe(202);
    await paid((await firstPayout.json()).payouts[0].id);

    // 40 days after the first sale: no new-seller hold, only the refund window.
    const second = await sale(seller);
    harness.clock.offsetMs = 25 * HOUR;
    expect((await balances(seller)).balances[0].availableMinor).toBe(second.earnings);
    const tooSoon = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(tooSoon.status).toBe(409);
    expect((await tooSoon.json()).error.code).toBe('payout_velocity');

    harness.clock.offsetMs = 169 * HOUR;
    const weekLater = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(weekLater.status).toBe(202);
    expect((await weekLater.json()).payouts[0].amountMinor).toBe(second.earnings);
  });
});

describe('a negative balance', () => {
  it('stops payouts in every currency until sales cover it', async () => {
    const seller = await sellerWithBank();
    const ngn = await sale(seller);
    await age(ngn.purchaseId, 40);
    const payout = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(payout.status).toBe(202);
    await paid((await payout.json()).payouts[0].id);
    // Support refunds the NGN sale after it was paid out: NGN goes below zero.
    await harness.pool.query(`UPDATE purchases SET paid_at = now() WHERE id = $1`, [
      ngn.purchaseId,
    ]);
    const refunded = await call(seller, 'POST', `/api/purchases/${ngn.purchaseId}/refund`);
    expect(refunded.status).toBe(200);
    const negative = (await balances(seller)).balances.find(
      (b: { currency: string }) => b.currency === 'NGN',
    );
    expect(negative.availableMinor).toBeLessThan(0);

    const usd = await sale(seller, { currency: 'USD', priceMinor: 5_000 });
    // Past the refund window, the new-seller hold (the refunded sale's new paid_at counts as
    // the first sale now) and the velocity interval: only the negative NGN balance is in the way.
    harness.clock.offsetMs = 24 * HOUR + 168 * HOUR + HOUR;
    const usdBalance = (await balances(seller)).balances.find(
      (b: { currency: string }) => b.currency === 'USD',
    );
    expect(usdBalance.availableMinor).toBe(usd.earnings);
    const blocked = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(blocked.status).toBe(409);
    expect((await blocked.json()).error.code).toBe('negative_balance');

    // A new NGN sale covers what is owed: payouts resume (USD would need an exchange rate to
    // reach this NGN bank account, which this harness has not been sent).
    const cover = await sale(seller, { priceMinor: 5_000_000 });
    harness.clock.offsetMs = cover.paidAt.getTime() - Date.now() + 24 * HOUR + 168 * HOUR + HOUR;
    const ngnAvailable = (await balances(seller)).balances.find(
      (b: { currency: string }) => b.currency === 'NGN',
    ).availableMinor;
    expect(ngnAvailable).toBe(negative.availableMinor + cover.earnings);
    const resumed = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(resumed.status).toBe(202);
    const [ngnPayout] = (await resumed.json()).payouts.filter(
      (p: { sourceCurrency: string }) => p.sourceCurrency === 'NGN',
    );
    expect(ngnPayout.amountMinor).toBe(ngnAvailable);
  });
});

describe('production defaults', () => {
  it('hold new sellers 7 days and space their first 3 payouts a week apart in production only', () => {
    const env = {
      NODE_ENV: 'production',
      PAYOUT_NEW_SELLER_DAYS: 30,
      PAYOUT_NEW_SELLER_PAYOUTS: 3,
    };
    expect(newSellerRules(env)).toEqual({
      holdHours: 168,
      days: 30,
      payouts: 3,
      intervalHours: 168,
    });
    expect(newSellerRules({ ...env, NODE_ENV: 'development' })).toMatchObject({
      holdHours: 0,
      intervalHours: 0,
    });
    expect(newSellerRules({ ...env, PAYOUT_NEW_SELLER_HOLD_HOURS: 72 }).holdHours).toBe(72);
    const defaults = loadConfig(configSchema, {});
    expect(defaults).toMatchObject({ PAYOUT_NEW_SELLER_DAYS: 30, PAYOUT_NEW_SELLER_PAYOUTS: 3 });
  });
});

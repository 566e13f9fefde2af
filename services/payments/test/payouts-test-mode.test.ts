import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * Issue 30, item 5, payments' half: test-mode earnings are never summed into a live payout. A
 * payout carries `testMode` on `payout.requested`; the worker sends test payouts only through
 * the sandbox (its own tests hold that half).
 */
let harness: Harness;
const HOUR = 3_600_000;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL: 'http://shop.test' });
});
afterAll(() => harness?.close());

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  callAs(harness, user, method, path, body);

describe('test-mode earnings', () => {
  it('are paid out apart from live earnings, in a payout marked testMode', async () => {
    harness.clock.offsetMs = 0;
    const seller = newSeller();
    await saveBankDestination(harness, seller);
    const testSale = await sell(harness, { ownerId: seller.id });
    const liveSale = await sell(harness, { ownerId: seller.id });
    // The harness pays through the sandbox, so every sale is test money; the second stands
    // for a live sale (as if Flutterwave live keys had taken it).
    await harness.pool.query('UPDATE purchases SET test_mode = false WHERE id = $1', [
      liveSale.purchaseId,
    ]);
    const { rows: sales } = await harness.pool.query(
      `SELECT id, test_mode, seller_earnings_minor::int AS e FROM purchases WHERE id = ANY($1)`,
      [[testSale.purchaseId, liveSale.purchaseId]],
    );
    const earnings = (purchaseId: string) => sales.find((sale) => sale.id === purchaseId)!.e;
    expect(sales.find((sale) => sale.id === testSale.purchaseId)!.test_mode).toBe(true);

    harness.clock.offsetMs = 25 * HOUR;
    const withdraw = await call(seller, 'POST', '/api/payouts/withdraw');
    expect(withdraw.status).toBe(202);
    const { payouts } = await withdraw.json();
    expect(payouts).toHaveLength(2);
    const requested = await waitFor(() => {
      const events = harness.published.filter(
        (event) => event.type === 'payout.requested' && event.data.sellerId === seller.id,
      );
      return events.length === 2 && events;
    });
    const byMode = (testMode: boolean) =>
      requested.find((event) => event.data.testMode === testMode)!.data;
    expect(byMode(true).amountMinor).toBe(earnings(testSale.purchaseId));
    expect(byMode(false).amountMinor).toBe(earnings(liveSale.purchaseId));
    const { rows } = await harness.pool.query(
      'SELECT id, test_mode FROM payouts WHERE seller_id = $1',
      [seller.id],
    );
    expect(rows.find((row) => row.id === byMode(true).payoutId)!.test_mode).toBe(true);
    expect(rows.find((row) => row.id === byMode(false).payoutId)!.test_mode).toBe(false);
  });
});

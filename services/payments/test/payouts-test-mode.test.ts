import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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

    // The payouts screen marks the test payout (issue 29: test money is marked everywhere).
    const history = (await (await call(seller, 'GET', '/api/payouts')).json()) as {
      payouts: { id: string; testMode: boolean }[];
    };
    const listed = (payoutId: string) => history.payouts.find((payout) => payout.id === payoutId);
    expect(listed(byMode(true).payoutId)!.testMode).toBe(true);
    expect(listed(byMode(false).payoutId)!.testMode).toBe(false);
    // So does the accountant's export.
    const csv = (await (await call(seller, 'GET', '/api/payouts/export.csv')).text()).split('\r\n');
    const column = csv[0]!.split(',').indexOf('"test_mode"');
    expect(column).toBeGreaterThan(-1);
    const csvMode = (payoutId: string) =>
      csv.find((line) => line.includes(payoutId))!.split(',')[column];
    expect(csvMode(byMode(true).payoutId)).toBe('"yes"');
    expect(csvMode(byMode(false).payoutId)).toBe('"no"');

    // Both paid: the test payout's e-mail says nothing reached the bank, the live one's does.
    for (const { payoutId } of [byMode(true), byMode(false)]) {
      const transfer = { payoutId, provider: 'sandbox', providerTransferId: `T-${payoutId}` };
      await harness.publish(
        createEvent('payout.transfer_submitted', transfer, { correlationId: payoutId }),
      );
      await harness.publish(
        createEvent(
          'payout.transfer_completed',
          { ...transfer, status: 'successful', reason: null, providerStatus: 'successful' },
          { correlationId: payoutId },
        ),
      );
    }
    const mails = await waitFor(async () => {
      const sent = (await mailTo(harness.pool, seller.email)).filter((mail) =>
        mail.subject.includes('Payout sent'),
      );
      return sent.length === 2 && sent;
    });
    const testMail = mails.find((mail) => mail.subject.startsWith('[TEST] '));
    const liveMail = mails.find((mail) => !mail.subject.startsWith('[TEST] '));
    expect(testMail?.text_body).toContain(
      'This was a test payout of test payments: the sandbox moved no real money and nothing was sent to',
    );
    expect(liveMail?.subject).toMatch(/^Payout sent: /);
    expect(liveMail?.text_body).toContain('We sent');
    expect(liveMail?.text_body).not.toContain('test payout');
  });
});

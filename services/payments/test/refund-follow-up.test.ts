import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeFlutterwave, type FakeFlutterwave } from './fake-flutterwave.js';
import { browser, fetchJson, ledgerOf, startHarness, waitFor, type Harness } from './support.js';

/**
 * Issue 30 item 6: a refund whose answer was lost is followed up with the provider's own record
 * of that transaction's refund (every page read, matched exactly), and never called failed
 * because nothing was found.
 */
let fake: FakeFlutterwave;
let harness: Harness;
const support = { id: randomUUID(), email: 'support@lockdrop.test' };

beforeAll(async () => {
  fake = await startFakeFlutterwave();
  harness = await startHarness({
    ...fake.env,
    PROVIDER_TIMEOUT_MS: '400',
    PUBLIC_URL: 'https://lockdrop.test',
    SUPPORT_EMAILS: support.email,
  });
});
afterAll(async () => {
  await harness?.close();
  await fake?.close();
});
beforeEach(() => {
  Object.assign(fake.failures, { verify: 'none', payments: 'none', refund: 'none' });
  // The list at its worst: filters ignored, a few records a page, one page unless asked.
  Object.assign(fake.refundList, { ignoreFilters: true, pageSize: 3, lookup: 'none' });
  fake.lateMs = 100;
  harness.clock.offsetMs = 0;
});

function deliver(body: unknown) {
  const raw = JSON.stringify(body);
  return fetchJson(`${harness.url}/api/webhooks/flutterwave`, {
    method: 'POST',
    headers: fake.signedHeaders(raw),
    body: raw,
  });
}

async function purchaseRow(id: string) {
  const { rows } = await harness.pool.query('SELECT * FROM purchases WHERE id = $1', [id]);
  return rows[0];
}

async function refundRow(purchaseId: string) {
  const { rows } = await harness.pool.query(
    'SELECT * FROM refunds WHERE purchase_id = $1 ORDER BY requested_at DESC LIMIT 1',
    [purchaseId],
  );
  return rows[0];
}

/** A purchase paid through a verified webhook, and its seller's refund button. */
async function paidPurchase() {
  const product = await harness.publishProduct();
  const buyer = browser(harness.url);
  const started = await buyer.postJson('/api/checkout', {
    productId: product.productId,
    buyerEmail: `buyer-${randomUUID()}@example.com`,
  });
  const { txRef } = (await started.json()) as { txRef: string };
  await deliver(fake.envelopeWebhook(fake.pay(txRef)));
  await waitFor(async () => {
    const { rows } = await harness.pool.query('SELECT id FROM purchases WHERE tx_ref = $1', [
      txRef,
    ]);
    return rows.length === 1;
  });
  const { rows } = await harness.pool.query('SELECT * FROM purchases WHERE tx_ref = $1', [txRef]);
  const purchase = rows[0];
  const seller = await harness.token({ id: product.ownerId, email: 'seller@example.com' });
  const refund = () =>
    fetchJson(`${harness.url}/api/purchases/${purchase.id}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seller}` },
    });
  return { purchase, refund, transactionId: Number(purchase.provider_transaction_id) };
}

const eventsOf = (type: string, purchaseId: string) =>
  harness.published.filter((event) => event.type === type && event.data.purchaseId === purchaseId);

async function unresolvedOnMetrics(): Promise<number> {
  const text = await (await fetchJson(`${harness.url}/metrics`)).text();
  return Number(/^payments_refunds_unresolved\S* (\d+)/m.exec(text)?.[1] ?? -1);
}

async function operatorList(): Promise<Array<{ id: string; purchaseId: string }>> {
  const token = await harness.token({ ...support, emailVerified: true });
  const response = await fetchJson(`${harness.url}/api/refunds/unresolved`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()).refunds;
}

describe('refund follow-up (issue 30 item 6)', () => {
  it('a refund answered 503 after the provider refunded ends refunded from its record on page 2 of an unfiltered list', async () => {
    const { purchase, refund, transactionId } = await paidPurchase();
    const refundsBefore = fake.refunds.length;
    fake.failures.refund = 'late_503';
    const answer = await refund();
    expect(answer.status).toBe(202);
    expect((await answer.json()).purchase.status).toBe('refunding');
    // The provider did refund, once, although we got a 503.
    expect(fake.refunds.length).toBe(refundsBefore + 1);
    expect(fake.refunds.at(-1)!.transactionId).toBe(transactionId);
    // It also holds a duplicate record of that refund, and newer refunds of other transactions
    // push ours off the first page.
    fake.addRefundRecord(transactionId, 'completed');
    fake.addOtherRefunds(4);
    const readsBefore = fake.refundListReads.length;

    // Past the old 30-minute horizon, so a reader of page 1 alone would have called it failed.
    harness.clock.offsetMs = 40 * 60_000;
    await waitFor(async () => (await refundRow(purchase.id)).status !== 'requested');
    expect(await refundRow(purchase.id)).toMatchObject({ status: 'succeeded' });
    expect((await purchaseRow(purchase.id)).status).toBe('refunded');
    expect(fake.refundListReads.slice(readsBefore).map((read) => read.page)).toContain(2);

    // Access stays revoked: refunded once, never handed back.
    await waitFor(async () => eventsOf('purchase.refunded', purchase.id).length > 0);
    expect(eventsOf('purchase.refunded', purchase.id)).toHaveLength(1);
    expect(eventsOf('purchase.refund_failed', purchase.id)).toHaveLength(0);
    // The seller's journal shows the refund once: one reversing line per account, balanced.
    const refundLines = (await ledgerOf(harness.pool, purchase.id)).filter(
      (line) => line.kind === 'refund',
    );
    const sellerLines = refundLines.filter((line) => line.account.startsWith('seller_'));
    expect(sellerLines).toHaveLength(1);
    expect(sellerLines[0]!.amount_minor).toBeGreaterThan(0);
    expect(refundLines.find((line) => line.account === 'buyer_payments')!.amount_minor).toBe(
      -Number(purchase.amount_minor),
    );
    expect(refundLines.reduce((sum, line) => sum + line.amount_minor, 0)).toBe(0);
    // No second refund was asked for.
    expect(fake.refunds.length).toBe(refundsBefore + 1);
  });

  it('a refund the provider has no record of is never failed: held, escalated, and still asked until the provider answers', async () => {
    const { purchase, refund, transactionId } = await paidPurchase();
    fake.failures.refund = '5xx';
    expect((await refund()).status).toBe(202);
    const before = await unresolvedOnMetrics();
    expect(before).toBeGreaterThanOrEqual(0);
    fake.addOtherRefunds(7);

    // Past the old 30-minute horizon: the provider still has nothing for this transaction.
    harness.clock.offsetMs = 40 * 60_000;
    const readsBefore = fake.refundListReads.length;
    // Positive observation: the refund shows up on the operator's list and on /metrics.
    await waitFor(async () =>
      (await operatorList()).some((listed) => listed.purchaseId === purchase.id),
    );
    expect(await unresolvedOnMetrics()).toBe(before + 1);
    const row = await refundRow(purchase.id);
    expect(row.status).toBe('requested');
    expect(row.failure_reason).toBeNull();
    expect(row.escalated_at).not.toBeNull();
    // Every page was read before concluding "not found (yet)".
    const pages = fake.refundListReads.slice(readsBefore).map((read) => read.page);
    expect(Math.max(...pages)).toBeGreaterThanOrEqual(3);
    // Re-checked with backoff, not dropped.
    expect(row.next_check_at.getTime() - row.last_checked_at.getTime()).toBeGreaterThanOrEqual(
      60_000,
    );
    // Access still held: purchase refunding, nothing handed back.
    expect((await purchaseRow(purchase.id)).status).toBe('refunding');
    expect(eventsOf('purchase.refund_failed', purchase.id)).toHaveLength(0);

    // The provider's record appears later (say, support refunded from the dashboard): the next
    // check books it and the refund leaves the operator's list.
    fake.addRefundRecord(transactionId, 'completed');
    harness.clock.offsetMs = 8 * 3_600_000;
    await waitFor(async () => (await purchaseRow(purchase.id)).status === 'refunded');
    expect(await refundRow(purchase.id)).toMatchObject({ status: 'succeeded' });
    expect((await operatorList()).some((listed) => listed.purchaseId === purchase.id)).toBe(false);
    expect(await unresolvedOnMetrics()).toBe(before);
  });

  it("fails a refund only on the provider's explicit word, and an unreadable list decides nothing", async () => {
    const { purchase, refund, transactionId } = await paidPurchase();
    fake.failures.refund = '5xx';
    expect((await refund()).status).toBe(202);
    // The list cannot be read: a failed check, not a "none".
    fake.refundList.lookup = '5xx';
    harness.clock.offsetMs = 40 * 60_000;
    await waitFor(async () => (await refundRow(purchase.id)).escalated_at instanceof Date);
    expect(await refundRow(purchase.id)).toMatchObject({ status: 'requested' });
    expect((await purchaseRow(purchase.id)).status).toBe('refunding');

    // The provider records that the refund failed: now, and only now, the buyer gets it back.
    fake.refundList.lookup = 'none';
    fake.addRefundRecord(transactionId, 'failed');
    harness.clock.offsetMs = 8 * 3_600_000;
    await waitFor(async () => (await refundRow(purchase.id)).status === 'failed');
    expect((await purchaseRow(purchase.id)).status).toBe('paid');
    await waitFor(async () => eventsOf('purchase.refund_failed', purchase.id).length === 1);
    expect(
      (await ledgerOf(harness.pool, purchase.id)).filter((line) => line.kind === 'refund'),
    ).toHaveLength(0);
  });

  it('the operator list is for support only', async () => {
    const token = await harness.token({ id: randomUUID(), email: 'seller@example.com' });
    const response = await fetchJson(`${harness.url}/api/refunds/unresolved`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
  });
});

/**
 * Issue 30 (should fix): the annual plan's pro-rata refund is a refund record before it is a
 * request, like a sale's. Counted in the provider's own records (the fake's refund records for
 * the plan's charge), since our one-live-refund-per-charge index would cap our own count at one.
 */
describe("the annual plan's refund (issue 30 should fix)", () => {
  const DAY = 86_400_000;

  /** A seller who paid for Starter yearly through the Flutterwave fake, 10 days ago. */
  async function sellerOnAnnualPlan() {
    const seller = { id: randomUUID(), email: `seller-${randomUUID()}@example.com` };
    const token = await harness.token({ ...seller, emailVerified: true });
    const call = (method: string, path: string, body?: unknown) =>
      fetchJson(`${harness.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const bought = await (
      await call('POST', '/api/billing/plan/change', { plan: 'starter', interval: 'yearly' })
    ).json();
    const txRef = decodeURIComponent(bought.link.split('/').pop());
    const charge = fake.pay(txRef);
    await deliver(fake.envelopeWebhook(charge));
    await waitFor(
      async () => (await (await call('GET', '/api/billing/plan')).json()).plan === 'starter',
    );
    const { rows } = await harness.pool.query(
      `SELECT s.id AS "subscriptionId", c.id AS "chargeId" FROM subscriptions s
       JOIN subscription_charges c ON c.subscription_id = s.id WHERE s.user_id = $1`,
      [seller.id],
    );
    harness.clock.offsetMs = 10 * DAY;
    return {
      seller,
      call,
      transactionId: charge.id,
      subscriptionId: rows[0].subscriptionId as string,
      chargeId: rows[0].chargeId as string,
      cancelWithRefund: () => call('POST', '/api/billing/plan/cancel', { refund: true }),
    };
  }

  /** What the provider itself holds: its refund records of the plan's charge. */
  const providerRefundsOf = (transactionId: number) =>
    [...fake.refundRecords.values()].filter((record) => record.tx_id === transactionId);
  /** Refund requests the provider received (and acted on) for the plan's charge. */
  const refundRequestsFor = (transactionId: number) =>
    fake.refunds.filter((request) => request.transactionId === transactionId);

  /** Refund calls that reached the provider for the plan's charge, whatever it made of them. */
  const refundPostsFor = (transactionId: number) =>
    fake.requests.filter((line) => line === `POST /v3/transactions/${transactionId}/refund`).length;

  async function chargeRefund(chargeId: string) {
    const { rows } = await harness.pool.query(
      'SELECT * FROM refunds WHERE charge_id = $1 ORDER BY requested_at',
      [chargeId],
    );
    return rows;
  }

  const planEvents = (userId: string) =>
    harness.published.filter(
      (event) => event.type === 'plan.changed' && event.data.userId === userId,
    );

  /** After a confirmed refund: Free at once, the charge refunded once, the provider told to stop. */
  async function expectPlanRefunded(plan: Awaited<ReturnType<typeof sellerOnAnnualPlan>>) {
    expect(await (await plan.call('GET', '/api/billing/plan')).json()).toEqual({
      plan: 'free',
      subscription: null,
    });
    await waitFor(async () => planEvents(plan.seller.id).length === 2);
    expect(planEvents(plan.seller.id)[1]!.data).toMatchObject({
      plan: 'free',
      previousPlan: 'starter',
    });
    const [refund] = await chargeRefund(plan.chargeId);
    const { rows: charges } = await harness.pool.query(
      'SELECT refunded_minor FROM subscription_charges WHERE id = $1',
      [plan.chargeId],
    );
    expect(Number(charges[0].refunded_minor)).toBe(Number(refund.amount_minor));
    const { rows: journal } = await harness.pool.query(
      `SELECT account, amount_minor FROM ledger_entries WHERE charge_id = $1 AND kind = 'plan_refund'
       ORDER BY account`,
      [plan.chargeId],
    );
    expect(journal.map((line) => [line.account, Number(line.amount_minor)])).toEqual([
      ['buyer_payments', -Number(refund.amount_minor)],
      ['plan_revenue', Number(refund.amount_minor)],
    ]);
    const { rows: subs } = await harness.pool.query(
      'SELECT status, ended_reason FROM subscriptions WHERE id = $1',
      [plan.subscriptionId],
    );
    expect(subs).toEqual([{ status: 'expired', ended_reason: 'refunded' }]);
    // The provider stops charging it: no renewal next year for a plan given back.
    expect(
      [...fake.subscriptions.values()]
        .filter((sub) => sub.customer.customer_email === plan.seller.email)
        .map((sub) => sub.status),
    ).toEqual(['cancelled']);
  }

  it('answered at once: refunded pro rata, and the seller is on Free', async () => {
    const plan = await sellerOnAnnualPlan();
    const answer = await plan.cancelWithRefund();
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({
      refundStatus: 'succeeded',
      currency: 'USD',
      pendingRefundMinor: null,
    });
    // 355 of 365 days unused of USD 99.99.
    expect(body.refundedMinor).toBeGreaterThan(Math.floor((9999 * 354) / 365));
    expect(body.refundedMinor).toBeLessThanOrEqual(Math.ceil((9999 * 355) / 365));
    expect(providerRefundsOf(plan.transactionId).map((r) => r.amount_refunded)).toEqual([
      body.refundedMinor / 100,
    ]);
    await expectPlanRefunded(plan);
    // Nothing left to give back: a second click asks the provider for nothing.
    expect((await plan.cancelWithRefund()).status).toBe(409);
    expect(refundRequestsFor(plan.transactionId)).toHaveLength(1);
  });

  it('a timeout after which the provider refunded, then a second click: the provider holds exactly one refund', async () => {
    const plan = await sellerOnAnnualPlan();
    // The provider works on it longer than we wait (400 ms), then refunds anyway.
    fake.failures.refund = 'late_503';
    fake.lateMs = 1_200;
    const first = await plan.cancelWithRefund();
    // The impatient second click, while the provider is still working on the first.
    const second = await plan.cancelWithRefund();
    // The money first: the second click never reached the provider (its request log is the
    // watermark — a second refund request would be there by now).
    expect(refundPostsFor(plan.transactionId)).toBe(1);

    expect(first.status).toBe(202);
    const accepted = await first.json();
    expect(accepted).toMatchObject({ refundStatus: 'pending', refundedMinor: 0, endsAt: null });
    expect(accepted.pendingRefundMinor).toBeGreaterThan(0);
    expect(second.status).toBe(409);
    expect((await second.json()).error.code).toBe('refund_in_progress');
    // Until the provider confirms, the seller keeps the plan they paid for.
    expect((await (await plan.call('GET', '/api/billing/plan')).json()).plan).toBe('starter');

    await waitFor(async () => providerRefundsOf(plan.transactionId).length === 1);
    // The follow-up finds the provider's record and ends the plan.
    harness.clock.offsetMs += 40 * 60_000;
    await waitFor(async () => (await chargeRefund(plan.chargeId))[0]?.status === 'succeeded');
    await expectPlanRefunded(plan);
    expect(providerRefundsOf(plan.transactionId)).toHaveLength(1);
    expect(refundRequestsFor(plan.transactionId)).toHaveLength(1);
    expect(refundPostsFor(plan.transactionId)).toBe(1);
    expect(await chargeRefund(plan.chargeId)).toHaveLength(1);
  });

  it('a 5xx after the provider refunded: settled later from its record, still one refund', async () => {
    const plan = await sellerOnAnnualPlan();
    fake.failures.refund = 'refund_then_5xx';
    const first = await plan.cancelWithRefund();
    fake.failures.refund = 'none';
    const second = await plan.cancelWithRefund();
    expect(providerRefundsOf(plan.transactionId)).toHaveLength(1);
    expect(refundPostsFor(plan.transactionId)).toBe(1);
    expect(first.status).toBe(202);
    expect(second.status).toBe(409);
    // Newer refunds of other transactions push ours off the first page of an unfiltered list.
    fake.addOtherRefunds(4);
    harness.clock.offsetMs += 40 * 60_000;
    await waitFor(async () => (await chargeRefund(plan.chargeId))[0]?.status === 'succeeded');
    await expectPlanRefunded(plan);
    expect(providerRefundsOf(plan.transactionId)).toHaveLength(1);
    expect(refundRequestsFor(plan.transactionId)).toHaveLength(1);
  });

  it('a 5xx the provider did not act on is never re-sent nor called failed: the plan stays, an operator sees it, the provider’s record settles it', async () => {
    const plan = await sellerOnAnnualPlan();
    const before = await unresolvedOnMetrics();
    fake.failures.refund = '5xx';
    expect((await plan.cancelWithRefund()).status).toBe(202);
    expect((await plan.cancelWithRefund()).status).toBe(409);
    harness.clock.offsetMs += 40 * 60_000;
    await waitFor(async () =>
      (await operatorList()).some(
        (listed) => (listed as { chargeId?: string }).chargeId === plan.chargeId,
      ),
    );
    expect(await unresolvedOnMetrics()).toBe(before + 1);
    const [refund] = await chargeRefund(plan.chargeId);
    expect(refund).toMatchObject({ status: 'requested', failure_reason: null });
    // Still Starter, nothing booked; the provider was asked once (and refused before acting):
    // silence is never taken as licence to ask again.
    expect((await (await plan.call('GET', '/api/billing/plan')).json()).plan).toBe('starter');
    expect(refundPostsFor(plan.transactionId)).toBe(1);
    expect(refundRequestsFor(plan.transactionId)).toHaveLength(0);
    expect(providerRefundsOf(plan.transactionId)).toHaveLength(0);

    // Support refunds it from the provider's dashboard: the next check books it, once.
    fake.addRefundRecord(plan.transactionId, 'completed');
    harness.clock.offsetMs += 8 * 3_600_000;
    await waitFor(async () => (await chargeRefund(plan.chargeId))[0]?.status === 'succeeded');
    await expectPlanRefunded(plan);
    expect(await unresolvedOnMetrics()).toBe(before);
  });

  it('a refusal leaves the plan as it was, and the seller may ask again', async () => {
    const plan = await sellerOnAnnualPlan();
    fake.failures.refund = 'reject';
    const refused = await plan.cancelWithRefund();
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe('refund_failed');
    expect((await (await plan.call('GET', '/api/billing/plan')).json()).plan).toBe('starter');
    expect(await chargeRefund(plan.chargeId)).toEqual([
      expect.objectContaining({ status: 'failed' }),
    ]);
    fake.failures.refund = 'none';
    expect((await plan.cancelWithRefund()).status).toBe(200);
    await expectPlanRefunded(plan);
    expect(providerRefundsOf(plan.transactionId)).toHaveLength(1);
  });
});

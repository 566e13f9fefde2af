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

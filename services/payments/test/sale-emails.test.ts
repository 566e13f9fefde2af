import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buy,
  fetchJson,
  mailTo,
  sellerWithEmail,
  startHarness,
  waitFor,
  type Harness,
} from './support.js';

let harness: Harness;
const SANDBOX_WEBHOOK_SECRET = 'sale-emails-test-webhook-secret';

beforeAll(async () => {
  harness = await startHarness({ SANDBOX_WEBHOOK_SECRET });
});
afterAll(() => harness?.close());

/** A seller with an address and one published product (support.ts). */
const seller = (options: { contactEmail?: string } = {}) => sellerWithEmail(harness, options);

const saleMails = async (to: string) =>
  (await mailTo(harness.pool, to)).filter((mail) => mail.subject.includes('You made a sale'));

/** Posts the stored webhook of `txRef` again, signed, as a provider redelivering it would. */
async function redeliverWebhook(txRef: string) {
  const { rows } = await harness.pool.query<{ payload: string }>(
    'SELECT payload FROM provider_events WHERE tx_ref = $1 ORDER BY id LIMIT 1',
    [txRef],
  );
  const raw = rows[0]!.payload;
  return fetchJson(`${harness.url}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'verif-hash': SANDBOX_WEBHOOK_SECRET,
      'flutterwave-signature': createHmac('sha256', SANDBOX_WEBHOOK_SECRET)
        .update(raw)
        .digest('base64'),
    },
    body: raw,
  });
}

describe('"You made a sale"', () => {
  it('e-mails the seller once per sale, however often the payment is confirmed again', async () => {
    const { email, product } = await seller();
    const buyerEmail = `buyer-${randomUUID()}@example.com`;
    const { buyer, txRef } = await buy(harness, product.productId, buyerEmail);

    // The same payment confirmed again: a redelivered webhook and the success page's verify-on-read.
    expect((await redeliverWebhook(txRef)).status).toBe(200);
    expect((await buyer.request(`/api/purchases/by-reference?tx_ref=${txRef}`)).status).toBe(200);
    await waitFor(async () => (await saleMails(email)).length > 0);
    // The receipt was queued in the same transaction: once it is delivered, so was any sale mail.
    await waitFor(async () => (await mailTo(harness.pool, buyerEmail)).length > 0);

    const mails = await saleMails(email);
    expect(mails).toHaveLength(1);
    // The sandbox takes test payments: the seller must not read it as money earned.
    expect(mails[0]!.subject).toBe(`[TEST] You made a sale: ${product.title}`);
    expect(mails[0]!.text_body).toContain(`${buyerEmail} bought "${product.title}" for`);
    expect(mails[0]!.text_body).toContain('not part of your earnings or payouts');
    expect(mails[0]!.text_body).not.toContain('You earn');
    expect(mails[0]!.text_body).toContain('/settings#notifications');
  });

  it('is on by default, and a seller who turns it off gets none', async () => {
    const { email, product, headers } = await seller();
    const setting = () => fetchJson(`${harness.url}/api/purchases/sale-emails`, { headers });
    expect(await (await setting()).json()).toEqual({ saleEmails: true });

    const off = await fetchJson(`${harness.url}/api/purchases/sale-emails`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ saleEmails: false }),
    });
    expect(off.status).toBe(200);
    expect(await (await setting()).json()).toEqual({ saleEmails: false });

    const buyerEmail = `buyer-${randomUUID()}@example.com`;
    await buy(harness, product.productId, buyerEmail);
    await waitFor(async () => (await mailTo(harness.pool, buyerEmail)).length > 0);
    expect(await saleMails(email)).toEqual([]);
  });

  it("goes to the store's current owner after a transfer, who alone chooses whether to get it", async () => {
    const newOwner = `owner-${randomUUID()}@example.com`;
    const { email, product } = await seller({ contactEmail: newOwner });
    const buyerEmail = `buyer-${randomUUID()}@example.com`;
    await buy(harness, product.productId, buyerEmail);
    await waitFor(async () => (await saleMails(newOwner)).length > 0);
    await waitFor(async () => (await mailTo(harness.pool, buyerEmail)).length > 0);
    expect(await saleMails(email)).toEqual([]);

    // The new owner acts for the store: the setting is theirs; the former owner (an admin now) not.
    const actingAs = async (role: 'owner' | 'admin') => ({
      authorization: `Bearer ${await harness.token({
        id: product.ownerId,
        email,
        actor: { id: randomUUID(), role },
      })}`,
    });
    const settingAs = async (role: 'owner' | 'admin') =>
      (
        await fetchJson(`${harness.url}/api/purchases/sale-emails`, {
          headers: await actingAs(role),
        })
      ).status;
    expect(await settingAs('owner')).toBe(200);
    expect(await settingAs('admin')).toBe(403);
  });

  it('the setting is the signed-in seller’s own, and validated', async () => {
    const anonymous = await fetchJson(`${harness.url}/api/purchases/sale-emails`);
    expect(anonymous.status).toBe(401);
    const { headers } = await seller();
    const bad = await fetchJson(`${harness.url}/api/purchases/sale-emails`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ saleEmails: 'no' }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBeTypeOf('string');
  });
});

describe('the refund e-mail', () => {
  it('tells the buyer once, after the provider confirmed the refund', async () => {
    const { product, headers } = await seller();
    const buyerEmail = `buyer-${randomUUID()}@example.com`;
    const { purchaseId, txRef } = await buy(harness, product.productId, buyerEmail);
    const refund = () =>
      fetchJson(`${harness.url}/api/purchases/${purchaseId}/refund`, {
        method: 'POST',
        headers: { authorization: headers.authorization },
      });
    expect((await refund()).status).toBe(200);
    // Asking again changes nothing, and sends nothing more.
    await refund();

    const refundMails = async () =>
      (await mailTo(harness.pool, buyerEmail)).filter((mail) =>
        mail.subject.includes('Your refund for'),
      );
    await waitFor(async () => (await refundMails()).length > 0);
    const mails = await refundMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`[TEST] Your refund for ${product.title}`);
    expect(mails[0]!.text_body).toContain(`Reference: ${txRef}`);
    expect(mails[0]!.text_body).toContain('Your access to the files of this purchase has ended.');
  });
});

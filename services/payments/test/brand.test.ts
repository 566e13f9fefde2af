import { randomUUID } from 'node:crypto';
import { createEvent, type PlanId, type PublicBrand } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, buy, startHarness, waitFor, type Harness } from './support.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL: 'http://shop.test' });
});
afterAll(() => harness?.close());

const brand: PublicBrand = {
  handle: 'dawn-recordings',
  name: 'Dawn Recordings',
  logoUrl:
    '/api/brand-logos/00000000-0000-4000-8000-000000000001/0123456789abcdef0123456789abcdef.png',
  accentColour: '#0f766e',
};

async function sellerWith(plan: PlanId) {
  const product = await harness.publishProduct();
  const sellerId = product.ownerId;
  await harness.publish(
    createEvent(
      'plan.changed',
      { userId: sellerId, plan, previousPlan: 'free' },
      { correlationId: randomUUID() },
    ),
  );
  await harness.publish(
    createEvent('store.brand_updated', { sellerId, brand }, { correlationId: randomUUID() }),
  );
  await waitFor(async () => {
    const { rows } = await harness.pool.query(
      `SELECT 1 FROM seller_brands b JOIN sellers s ON s.user_id = b.seller_id WHERE b.seller_id = $1 AND s.plan = $2`,
      [sellerId, plan],
    );
    return rows.length === 1;
  });
  return product;
}

async function payInSandbox(productId: string) {
  const buyerEmail = `buyer-${randomUUID()}@example.com`;
  const buyer = browser(harness.url);
  const { link, txRef } = await (
    await buyer.postJson('/api/checkout', { productId, buyerEmail })
  ).json();
  const page = await (await buyer.request(new URL(link).pathname)).text();
  await buyer.submitForm(`/sandbox/checkout/${txRef}/pay`);
  const receipt = await waitFor(async () => {
    const { rows } = await harness.pool.query<{
      subject: string;
      text_body: string;
      html_body: string;
    }>('SELECT subject, text_body, html_body FROM mailbox.messages WHERE recipient = $1', [
      buyerEmail,
    ]);
    return rows[0];
  });
  const result = await (await buyer.request(`/api/purchases/by-reference?tx_ref=${txRef}`)).json();
  return { page, receipt, result };
}

describe("the seller's brand on checkout and receipts", () => {
  it('heads the hosted checkout page, the payment result and the receipt of a Pro seller', async () => {
    const product = await sellerWith('pro');
    const { page, receipt, result } = await payInSandbox(product.productId);

    expect(page).toContain('<title>Sandbox checkout · Dawn Recordings</title>');
    expect(page).toContain('data-testid="store-brand"');
    expect(page).toContain(`src="http://shop.test${brand.logoUrl}"`);
    expect(page).toContain('Sold with Lockdrop');

    expect(result.brand).toEqual(brand);

    expect(receipt.html_body).toContain('Dawn Recordings');
    expect(receipt.html_body).toContain(`http://shop.test${brand.logoUrl}`);
    expect(receipt.html_body).toContain('background:#0f766e');
    expect(receipt.html_body).not.toContain('🔒 Lockdrop');
    expect(receipt.html_body).toContain('Sold with Lockdrop');
    expect(receipt.text_body).toContain('a purchase from Dawn Recordings');
    expect(receipt.text_body).toContain('Dawn Recordings · Sold with Lockdrop');
  });

  it('keeps the Lockdrop look for a seller whose plan has no branding', async () => {
    const product = await sellerWith('starter');
    const { page, receipt, result } = await payInSandbox(product.productId);

    expect(page).toContain('<title>Sandbox checkout · Lockdrop</title>');
    expect(page).not.toContain('Dawn Recordings');
    expect(result.brand).toBeNull();
    expect(receipt.html_body).toContain('🔒 Lockdrop');
    expect(receipt.html_body).not.toContain('Dawn Recordings');
  });
});

describe("the seller's brand on the buyer's other e-mails", () => {
  const refundMail = async (buyerEmail: string) =>
    waitFor(async () => {
      const { rows } = await harness.pool.query<{ text_body: string; html_body: string }>(
        `SELECT text_body, html_body FROM mailbox.messages
          WHERE recipient = $1 AND subject LIKE '%Your refund for %'`,
        [buyerEmail],
      );
      return rows[0];
    });
  const refundOf = async (productOwner: string, purchaseId: string) => {
    const token = await harness.token({ id: productOwner, email: 'seller@example.com' });
    const response = await fetch(`${harness.url}/api/purchases/${purchaseId}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  };

  it('heads the refund e-mail of a Pro seller with their brand, and a Starter seller’s with Lockdrop', async () => {
    const pro = await sellerWith('pro');
    const buyerEmail = `buyer-${randomUUID()}@example.com`;
    const sold = await buy(harness, pro.productId, buyerEmail);
    await refundOf(pro.ownerId, sold.purchaseId);
    const mail = await refundMail(buyerEmail);
    expect(mail.html_body).toContain('Dawn Recordings');
    expect(mail.html_body).toContain(`http://shop.test${brand.logoUrl}`);
    expect(mail.html_body).not.toContain('🔒 Lockdrop');
    expect(mail.html_body).toContain('Sold with Lockdrop');
    expect(mail.text_body).toContain('a purchase from Dawn Recordings');

    const starter = await sellerWith('starter');
    const plainBuyer = `buyer-${randomUUID()}@example.com`;
    const plain = await buy(harness, starter.productId, plainBuyer);
    await refundOf(starter.ownerId, plain.purchaseId);
    const lockdrop = await refundMail(plainBuyer);
    expect(lockdrop.html_body).toContain('🔒 Lockdrop');
    expect(lockdrop.html_body).not.toContain('Dawn Recordings');
  });

  it("heads the new-files e-mail to a Pro seller's buyers with the brand", async () => {
    const pro = await sellerWith('pro');
    const buyerEmail = `buyer-${randomUUID()}@example.com`;
    await buy(harness, pro.productId, buyerEmail);
    await harness.publish(
      createEvent(
        'product.files_added',
        {
          productId: pro.productId,
          ownerId: pro.ownerId,
          productTitle: pro.title,
          files: [{ fileId: randomUUID(), fileName: 'bonus.pdf' }],
          notifyBuyers: true,
        },
        { correlationId: randomUUID() },
      ),
    );
    const mail = await waitFor(async () => {
      const { rows } = await harness.pool.query<{ html_body: string }>(
        `SELECT html_body FROM mailbox.messages WHERE recipient = $1 AND subject LIKE '%New in %'`,
        [buyerEmail],
      );
      return rows[0];
    });
    expect(mail.html_body).toContain('Dawn Recordings');
    expect(mail.html_body).not.toContain('🔒 Lockdrop');
    expect(mail.html_body).toContain('Sold with Lockdrop');
  });
});

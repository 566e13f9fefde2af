import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelivery, type DeliveryHarness } from './support/harness.js';
import {
  errorOf,
  makePurchase,
  paidEvent,
  refundedEvent,
  shop,
  type Caller,
  type TestPurchase,
} from './support/purchases.js';

let delivery: DeliveryHarness;
let baseUrl: string;
let store: ReturnType<typeof shop>;

beforeAll(async () => {
  delivery = await startDelivery();
  baseUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
  store = shop(delivery, baseUrl);
});
afterAll(() => delivery?.close());

/** Status and error code of `POST /api/downloads` for the caller. */
async function outcome(purchase: TestPurchase, caller?: Caller) {
  const response = await store.requestLink(purchase.paid.purchaseId, caller);
  if (response.status === 200) return { status: 200 };
  const { code, message } = await errorOf(response);
  return { status: response.status, code, message };
}

const receiptCookieOf = (response: Response) => {
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { header: setCookie, cookie: setCookie.split(';')[0]! };
};

async function soldProduct() {
  const { product } = await store.sellFile(randomBytes(4096), 'guide.pdf');
  return product;
}

describe('who may get a download link', () => {
  let purchase: TestPurchase;
  let otherPurchase: TestPurchase;

  beforeAll(async () => {
    const product = await soldProduct();
    purchase = await store.buy(product, { buyerEmail: 'Ada.Buyer@Example.com' });
    otherPurchase = await store.buy(product);
  });

  it('the signed-in buyer with a verified e-mail (compared without case)', async () => {
    const buyer = await delivery.user('free', { email: 'ada.buyer@example.COM' });
    expect(await outcome(purchase, buyer)).toMatchObject({ status: 200 });
  });

  it('not the same e-mail unverified: 403 email_not_verified', async () => {
    const unverified = await store.buyerAccount(purchase, false);
    expect(await outcome(purchase, unverified)).toMatchObject({
      status: 403,
      code: 'email_not_verified',
    });
  });

  it('not another signed-in user, who learns nothing: 404 purchase_not_found', async () => {
    const stranger = await delivery.user('free');
    expect(await outcome(purchase, stranger)).toMatchObject({
      status: 404,
      code: 'purchase_not_found',
    });
    const unknown = { ...purchase, paid: { ...purchase.paid, purchaseId: crypto.randomUUID() } };
    expect(await outcome(unknown, stranger)).toMatchObject({
      status: 404,
      code: 'purchase_not_found',
    });
  });

  it("not anonymous: 401 auth_required with the spec's message", async () => {
    expect(await outcome(purchase)).toEqual({
      status: 401,
      code: 'auth_required',
      message: 'You must be logged in to download files',
    });
    expect(await outcome(purchase, { cookie: 'ld_access=garbage' })).toMatchObject({
      status: 401,
      code: 'auth_required',
    });
  });

  it('the browser that started the checkout, without signing in; another browser not', async () => {
    expect(await outcome(purchase, { cookie: `ld_buyer=${purchase.browserKey}` })).toMatchObject({
      status: 200,
    });
    expect(
      await outcome(purchase, { cookie: `ld_buyer=${otherPurchase.browserKey}` }),
    ).toMatchObject({ status: 401 });
    expect(
      await outcome(purchase, { cookie: `ld_buyer=${randomBytes(32).toString('base64url')}` }),
    ).toMatchObject({ status: 401 });
  });

  it('a receipt session, for its own purchase only', async () => {
    const opened = await store.openReceipt(purchase.receiptToken);
    expect(opened.status).toBe(200);
    const { cookie } = receiptCookieOf(opened);
    expect(await outcome(purchase, { cookie })).toMatchObject({ status: 200 });
    expect(await outcome(otherPurchase, { cookie })).toMatchObject({
      status: 401,
      code: 'auth_required',
    });
    const stranger = await delivery.user('free');
    expect(await outcome(otherPurchase, { cookie, auth: stranger.auth })).toMatchObject({
      status: 404,
    });
  });
});

describe('receipt sessions (the link in the receipt e-mail)', () => {
  it('opens with the receipt token: purchase details and an httpOnly, path /api, Lax, 30-day cookie', async () => {
    const product = await soldProduct();
    const purchase = await store.buy(product);
    const opened = await store.openReceipt(purchase.receiptToken);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(await opened.json()).toEqual({
      purchase: {
        id: purchase.paid.purchaseId,
        productId: product.productId,
        productTitle: 'Sunset pack',
        fileName: 'guide.pdf',
        sizeBytes: 4096,
      },
    });
    const { header } = receiptCookieOf(opened);
    expect(header).toMatch(/^ld_receipt=[A-Za-z0-9_-]{43};/);
    expect(header).toContain('Max-Age=2592000');
    expect(header).toContain('Path=/api');
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).not.toContain('Secure');
  });

  it('404 for an unknown token and for a refunded purchase', async () => {
    for (const token of [randomBytes(32).toString('base64url'), 'short-but-sixteen-chars']) {
      const response = await store.openReceipt(token);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('receipt_not_found');
    }
    const purchase = await store.buy(await soldProduct());
    await store.refund(purchase);
    expect((await store.openReceipt(purchase.receiptToken)).status).toBe(404);
  });

  it('one browser can hold several receipts; its key changes each time, so an old key opens nothing', async () => {
    const first = await store.buy(await soldProduct());
    const second = await store.buy(await soldProduct());
    const firstCookie = receiptCookieOf(await store.openReceipt(first.receiptToken)).cookie;
    const bothCookie = receiptCookieOf(
      await store.openReceipt(second.receiptToken, { cookie: firstCookie }),
    ).cookie;
    expect(bothCookie).not.toBe(firstCookie);
    expect(await outcome(first, { cookie: bothCookie })).toMatchObject({ status: 200 });
    expect(await outcome(second, { cookie: bothCookie })).toMatchObject({ status: 200 });
    expect(await outcome(first, { cookie: firstCookie })).toMatchObject({ status: 401 });
  });

  it('ends after 30 days', async () => {
    const purchase = await store.buy(await soldProduct());
    const { cookie } = receiptCookieOf(await store.openReceipt(purchase.receiptToken));
    try {
      delivery.clock.offsetMs = 31 * 24 * 3600 * 1000;
      expect(await outcome(purchase, { cookie })).toMatchObject({ status: 401 });
    } finally {
      delivery.clock.offsetMs = 0;
    }
  });
});

describe("GET /api/downloads/access (the product page's 'You have full access to this product')", () => {
  it('answers by the same three ways of access, and no once refunded', async () => {
    const product = await soldProduct();
    const purchase = await store.buy(product);
    const access = async (caller?: Caller) =>
      (await store.access(product.productId, caller)).json();
    const yes = { hasAccess: true, purchaseId: purchase.paid.purchaseId };
    const receipt = receiptCookieOf(await store.openReceipt(purchase.receiptToken)).cookie;

    expect(await access(await store.buyerAccount(purchase))).toEqual(yes);
    expect(await access({ cookie: `ld_buyer=${purchase.browserKey}` })).toEqual(yes);
    expect(await access({ cookie: receipt })).toEqual(yes);
    expect(await access()).toEqual({ hasAccess: false });
    expect(await access(await store.buyerAccount(purchase, false))).toEqual({ hasAccess: false });
    expect(await access(await delivery.user('free'))).toEqual({ hasAccess: false });
    expect(
      await (await store.access((await soldProduct()).productId, { cookie: receipt })).json(),
    ).toEqual({ hasAccess: false });

    await store.refund(purchase);
    expect(await access(await store.buyerAccount(purchase))).toEqual({ hasAccess: false });
    expect(await access({ cookie: `ld_buyer=${purchase.browserKey}` })).toEqual({
      hasAccess: false,
    });
  });
});

describe('entitlements from purchase events', () => {
  it('a refund delivered before its payment still ends revoked', async () => {
    const product = await soldProduct();
    const purchase = makePurchase({
      productId: product.productId,
      sellerId: product.ownerId,
      fileId: product.fileId,
    });
    await delivery.publish(refundedEvent(purchase));
    await store.entitlementWhere(purchase, 'revoked_at IS NOT NULL');
    await delivery.publish(paidEvent(purchase));
    const row = await store.entitlementWhere(purchase, 'paid_at IS NOT NULL');
    expect(row.revoked_at).not.toBeNull();

    const buyer = await store.buyerAccount(purchase);
    expect(await outcome(purchase, buyer)).toMatchObject({
      status: 403,
      code: 'purchase_refunded',
    });
    expect(await (await store.access(product.productId, buyer)).json()).toEqual({
      hasAccess: false,
    });
    expect((await store.openReceipt(purchase.receiptToken)).status).toBe(404);
  });

  it('purchase.paid delivered twice (redelivery, and a second event for the same purchase) → one entitlement', async () => {
    const product = await soldProduct();
    const purchase = await store.buy(product);
    const event = paidEvent(purchase);
    await delivery.publish(event);
    await delivery.publish({ ...event, id: crypto.randomUUID() });
    const marker = await store.buy(product);
    await store.entitlementWhere(marker, 'paid_at IS NOT NULL');
    const { rows } = await delivery.db.query(
      'SELECT count(*)::int AS n FROM entitlements WHERE purchase_id = $1',
      [purchase.paid.purchaseId],
    );
    expect(rows[0].n).toBe(1);
    expect(await outcome(purchase, await store.buyerAccount(purchase))).toMatchObject({
      status: 200,
    });
  });

  it('a purchase.paid without a file falls back to the file the product sells', async () => {
    const product = await soldProduct();
    const purchase = await store.buy(product, {
      fileId: null,
      receiptTokenHash: null,
      buyerBrowserKeyHash: null,
    });
    const link = await store.link(purchase.paid.purchaseId, await store.buyerAccount(purchase));
    expect(link).toMatchObject({ fileName: 'guide.pdf', sizeBytes: 4096 });
  });
});

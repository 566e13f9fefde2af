import { createHash } from 'node:crypto';
import { randomBytes, randomUUID } from 'node:crypto';
import { createEvent, type DomainEvent, type EventData } from '@lockdrop/contracts';
import { sha256Hex } from '@lockdrop/auth';
import { purchasePaidData, purchaseRefundedData, testEvent } from '@lockdrop/testing';
import { makeProduct, multipart, waitFor, type DeliveryHarness } from './harness.js';

/** A paid purchase as payments announces it, with the secrets only the buyer holds. */
export interface TestPurchase {
  paid: EventData<'purchase.paid'>;
  /** The secret in the receipt e-mail's link (`/receipt/<token>`). */
  receiptToken: string;
  /** The `ld_buyer` cookie of the browser that started the checkout. */
  browserKey: string;
}

export function makePurchase(
  overrides: Partial<EventData<'purchase.paid'>> & { productId: string; fileId: string | null },
): TestPurchase {
  const receiptToken = randomBytes(32).toString('base64url');
  const browserKey = randomBytes(32).toString('base64url');
  return {
    receiptToken,
    browserKey,
    paid: purchasePaidData({
      buyerEmail: `buyer-${randomUUID().slice(0, 8)}@example.com`,
      productTitle: 'Sunset pack',
      fileName: 'file.bin',
      receiptTokenHash: sha256Hex(receiptToken),
      buyerBrowserKeyHash: sha256Hex(browserKey),
      ...overrides,
    }),
  };
}

export const paidEvent = (purchase: TestPurchase): DomainEvent =>
  createEvent('purchase.paid', purchase.paid, { correlationId: `test-${randomUUID()}` });

export const refundedEvent = ({ paid }: TestPurchase): DomainEvent =>
  testEvent('purchase.refunded', purchaseRefundedData(paid));

/** What a caller presents: an account's bearer token and/or browser cookies. */
export interface Caller {
  auth?: string;
  cookie?: string;
}

const headersOf = (caller: Caller = {}): Record<string, string> => ({
  ...(caller.auth ? { authorization: caller.auth } : {}),
  ...(caller.cookie ? { cookie: caller.cookie } : {}),
});

/** The buyer's side of delivery over real HTTP: sell a file, buy it, ask for links and access. */
export function shop(delivery: DeliveryHarness, baseUrl: string) {
  async function sellFile(
    content: Buffer,
    fileName = 'file.bin',
    productOverrides: Partial<EventData<'product.updated'>> = {},
  ) {
    const seller = await delivery.user('pro');
    const form = multipart(fileName, content);
    const uploaded = await fetch(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { 'content-type': form.contentType, authorization: seller.auth },
      body: form.body,
    });
    if (uploaded.status !== 201)
      throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const file = (await uploaded.json()) as {
      id: string;
      sizeBytes: number;
      sha256: string;
      contentType: string;
    };
    const product = makeProduct({
      ownerId: seller.id,
      fileId: file.id,
      fileName,
      fileSizeBytes: content.length,
      status: 'published',
      ...productOverrides,
    });
    await delivery.publishProduct('product.created', product);
    await waitFor(
      async () =>
        (
          await delivery.db.query('SELECT 1 FROM products WHERE product_id = $1', [
            product.productId,
          ])
        ).rowCount,
    );
    return { seller, file, product };
  }

  /** Publishes `purchase.paid` and waits until delivery has recorded the entitlement. */
  async function buy(
    product: { productId: string; ownerId: string; fileId: string },
    overrides: Partial<EventData<'purchase.paid'>> = {},
  ) {
    const purchase = makePurchase({
      productId: product.productId,
      sellerId: product.ownerId,
      fileId: product.fileId,
      ...overrides,
    });
    await delivery.publish(paidEvent(purchase));
    await entitlementWhere(purchase, 'paid_at IS NOT NULL');
    return purchase;
  }

  async function entitlementWhere(purchase: TestPurchase, condition: string) {
    return waitFor(async () => {
      const { rows } = await delivery.db.query(
        `SELECT * FROM entitlements WHERE purchase_id = $1 AND ${condition}`,
        [purchase.paid.purchaseId],
      );
      return rows[0];
    });
  }

  async function refund(purchase: TestPurchase) {
    await delivery.publish(refundedEvent(purchase));
    await entitlementWhere(purchase, 'revoked_at IS NOT NULL');
  }

  /** `POST /api/downloads`: a link to the purchase's `fileId`, or without one its main file. */
  const requestLink = (purchaseId: string, caller?: Caller, fileId?: string) =>
    fetch(`${baseUrl}/api/downloads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(caller) },
      body: JSON.stringify({ purchaseId, fileId }),
    });

  /** `POST /api/downloads/zip`: a link to every file of the purchase as one ZIP. */
  const requestZipLink = (purchaseId: string, caller?: Caller) =>
    fetch(`${baseUrl}/api/downloads/zip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(caller) },
      body: JSON.stringify({ purchaseId }),
    });

  /** `GET /api/downloads/files`: every file the purchase may download. */
  const requestFiles = (purchaseId: string, caller?: Caller) =>
    fetch(`${baseUrl}/api/downloads/files?purchaseId=${purchaseId}`, {
      headers: headersOf(caller),
    });

  async function link(
    purchaseId: string,
    caller?: Caller,
  ): Promise<{ downloadUrl: string; fileName: string; sizeBytes: number; expiresAt: string }> {
    const response = await requestLink(purchaseId, caller);
    if (response.status !== 200)
      throw new Error(`no link: ${response.status} ${await response.text()}`);
    return response.json() as never;
  }

  const access = (productId: string, caller?: Caller) =>
    fetch(`${baseUrl}/api/downloads/access?productId=${productId}`, { headers: headersOf(caller) });

  const openReceipt = (token: string, caller?: Caller) =>
    fetch(`${baseUrl}/api/downloads/receipt-session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(caller) },
      body: JSON.stringify({ token }),
    });

  /** A file sold, bought and linked: what a buyer holds when they press Download. */
  async function purchasedFile(content: Buffer, fileName = 'Stems — Lagos.zip') {
    const { file, product } = await sellFile(content, fileName);
    const purchase = await buy(product);
    const buyer = await buyerAccount(purchase);
    const downloadLink = await link(purchase.paid.purchaseId, buyer);
    return { file, purchase, link: downloadLink };
  }

  /** The signed-in account of the buyer, with a verified (or not) e-mail. */
  const buyerAccount = (purchase: TestPurchase, emailVerified = true) =>
    delivery.user('free', { email: purchase.paid.buyerEmail, emailVerified });

  return {
    sellFile,
    buy,
    refund,
    entitlementWhere,
    requestLink,
    requestZipLink,
    requestFiles,
    link,
    access,
    openReceipt,
    buyerAccount,
    purchasedFile,
  };
}

export const sha256 = (bytes: Buffer | Uint8Array) =>
  createHash('sha256').update(bytes).digest('hex');

/** A response's body, whole. */
export const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

/** The `{ error }` body every failing API answer carries. */
export async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

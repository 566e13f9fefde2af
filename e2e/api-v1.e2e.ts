import { randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_PATTERN, type ApiKeyScope } from '@lockdrop/contracts';
import { createPool } from '@lockdrop/db';
import { startWebhookReceiver, type WebhookReceiver } from '@lockdrop/testing';
import type { BrowserContext } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { buildApiV1Document } from '../tools/api-types';
import { apiClient } from './support/api-client';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';

/**
 * Issue 27's "done means", through the gateway of the started app: a Business seller's key, a
 * script on the generated client making and publishing a product with its file, a buyer paying by
 * bank transfer in the sandbox, the seller's receiver verifying `sale.pending` and then
 * `sale.created` for the same sale with standardwebhooks, the script listing the sale and
 * refunding it (`sale.refunded`, verified too), each key seeing only its mode's sales and
 * webhook endpoints, and the keys that must be refused.
 */
let seller: Browser;
let buyer: Browser;
let receiver: WebhookReceiver;
/** Payments' own schema: only to stand a sale in for a live one (the stack sells in the sandbox). */
const paymentsDb = createPool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop',
  schema: 'payments',
  max: 1,
});

beforeAll(async () => {
  [seller, buyer] = await Promise.all([launchBrowser(), launchBrowser()]);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await Promise.all([seller?.close(), buyer?.close(), receiver?.close(), paymentsDb.end()]);
});

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates a key through the settings page's API route (the browser part is api-keys.e2e.ts). */
async function createKey(context: BrowserContext, mode: 'live' | 'test', scopes: ApiKeyScope[]) {
  const response = await context.request.post(`${baseUrl}/api/auth/api-keys`, {
    data: { name: `script ${randomUUID().slice(0, 8)}`, mode, scopes },
  });
  return {
    status: response.status(),
    body: (await response.json()) as { apiKey: { id: string }; secret: string },
  };
}

describe('the public API, end to end', () => {
  it('a Business seller scripts a product with the generated client, a sale reaches their signed webhook, wrong keys are refused', async () => {
    // A seller on Business (bought in the sandbox, as the dashboard's upgrade does).
    await signUpSeller(seller.context);
    const change = await seller.context.request.post(`${baseUrl}/api/billing/plan/change`, {
      data: { plan: 'business', interval: 'monthly' },
    });
    expect(change.status()).toBe(200);
    const { link } = (await change.json()) as { link: string };
    const billing = await seller.context.newPage();
    await billing.goto(link);
    await billing.getByRole('button', { name: /^Subscribe — / }).click();
    await billing.waitForURL('**/settings?plan_payment=1**');
    await expectToast(billing, 'You are now on the Business plan.');
    await billing.close();

    // Identity hears of the plan through its event: a live key is Business's.
    let created = await createKey(seller.context, 'live', ['products:write']);
    await expect
      .poll(
        async () => {
          created = await createKey(seller.context, 'live', [
            'products:read',
            'products:write',
            'files:write',
            'webhooks:read',
            'webhooks:write',
            'sales:read',
          ]);
          return created.status;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(201);
    const secret = created.body.secret;
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(secret.startsWith('ld_live_')).toBe(true);

    // The seller's script.
    const api = apiClient(secret);
    // The sandbox takes test payments: the receiver is a test-mode endpoint, made with a test key.
    const testKey = await createKey(seller.context, 'test', [
      'sales:read',
      'refunds:write',
      'webhooks:read',
      'webhooks:write',
    ]);
    expect(testKey.status).toBe(201);
    expect(testKey.body.secret.startsWith('ld_test_')).toBe(true);
    const script = apiClient(testKey.body.secret);
    const endpoint = await script.POST('/api/v1/webhook-endpoints', {
      body: { url: receiver.url, events: ['sale.pending', 'sale.created', 'sale.refunded'] },
    });
    expect(endpoint.response.status).toBe(201);
    expect(endpoint.data!.mode).toBe('test');
    const signingSecret = endpoint.data!.secret;
    expect(signingSecret).toMatch(/^whsec_/);
    // The live key never sees the test endpoint.
    const liveEndpoints = await api.GET('/api/v1/webhook-endpoints');
    expect(liveEndpoints.data).toEqual({ object: 'list', data: [], has_more: false });
    const hidden = await api.GET('/api/v1/webhook-endpoints/{id}', {
      params: { path: { id: endpoint.data!.id } },
    });
    expect(hidden.response.status).toBe(404);

    // The script: a product from a short guide, its main file uploaded into it, then published.
    const upload = (fileName: string, bytes: Buffer, productId?: string) => {
      const form = new FormData();
      // productId goes before the file: delivery checks the product before reading the file.
      if (productId) form.append('productId', productId);
      form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
      return { form, body: { file: fileName, ...(productId ? { productId } : {}) } };
    };
    const guideBytes = Buffer.from('%PDF-1.4 how to install the presets');
    const guide = upload('read-me-first.pdf', guideBytes);
    const file = await api.POST('/api/v1/files', {
      body: guide.body,
      bodySerializer: () => guide.form,
    });
    expect(file.response.status, JSON.stringify(file.error)).toBe(201);
    expect(file.data).toMatchObject({
      object: 'file',
      sizeBytes: guideBytes.length,
      productId: null,
    });

    const title = `API presets ${Date.now().toString(36)}`;
    const product = await api.POST('/api/v1/products', {
      body: { title, price: '9.00', currency: 'USD', fileId: file.data!.id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(product.response.status, JSON.stringify(product.error)).toBe(201);
    const productId = product.data!.id;
    expect(product.data!.status).toBe('draft');

    const bytes = Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(8 * 1024)]);
    const presets = upload('presets.zip', bytes, productId);
    const uploadKey = randomUUID();
    const added = await api.POST('/api/v1/files', {
      body: presets.body,
      bodySerializer: () => presets.form,
      headers: { 'idempotency-key': uploadKey },
    });
    expect(added.response.status, JSON.stringify(added.error)).toBe(201);
    expect(added.data).toMatchObject({ object: 'file', sizeBytes: bytes.length, productId });
    // A retry with the same Idempotency-Key (the script lost the answer) is the stored answer:
    // no second upload, no second file on the product.
    const again = await api.POST('/api/v1/files', {
      body: presets.body,
      bodySerializer: () => presets.form,
      headers: { 'idempotency-key': uploadKey },
    });
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data!.id).toBe(added.data!.id);

    const published = await api.POST('/api/v1/products/{id}/publish', {
      params: { path: { id: productId } },
    });
    expect(published.data?.status).toBe('published');
    expect(published.data!.files.map((f) => [f.fileName, f.sizeBytes])).toEqual([
      ['read-me-first.pdf', guideBytes.length],
      ['presets.zip', bytes.length],
    ]);

    // A buyer pays by bank transfer in the sandbox: pending until the transfer arrives.
    const buyerEmail = `api-buyer-${Date.now()}@example.com`;
    const shop = await buyer.open(`/product/${productId}`);
    await shop.getByLabel('E-mail', { exact: true }).fill(buyerEmail);
    await shop.getByRole('button', { name: 'Buy now for $9.00' }).click();
    await shop.waitForURL('**/sandbox/checkout/**');
    const providerPage = shop.url();
    await shop.getByRole('button', { name: 'Bank transfer' }).click();
    await shop.getByRole('heading', { name: 'Your payment is being confirmed' }).waitFor();

    type SaleEvent = { type: string; data: { id: string; productId: string; status: string } };
    const verified = (index: number) => {
      const delivery = receiver.processed[index]!;
      return new Webhook(signingSecret).verify(delivery.body, delivery.headers) as SaleEvent;
    };
    await until(() => receiver.processed.length === 1, 'sale.pending delivery');
    const pending = verified(0);
    expect(pending).toMatchObject({
      type: 'sale.pending',
      data: { productId: productId, status: 'pending' },
    });

    await shop.goto(providerPage);
    await shop.getByRole('button', { name: 'Transfer arrives' }).click();
    await shop.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    await until(() => receiver.processed.length === 2, 'sale.created delivery');
    expect(verified(1)).toMatchObject({
      type: 'sale.created',
      data: { id: pending.data.id, productId: productId, status: 'paid' },
    });

    // The sandbox's sale is a test sale: the live key lists none of it; the test key lists it
    // (camelCase, minor units, filtered by product) and refunds it.
    const liveSales = await api.GET('/api/v1/sales');
    expect(liveSales.response.status).toBe(200);
    expect(liveSales.data).toEqual({ object: 'list', data: [], has_more: false });
    const listed = await script.GET('/api/v1/sales', {
      params: { query: { productId, limit: 10 } },
    });
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
    expect(listed.data).toMatchObject({
      object: 'list',
      has_more: false,
      data: [
        {
          object: 'sale',
          productId,
          productTitle: title,
          buyerEmail,
          amountMinor: 900,
          currency: 'USD',
          status: 'paid',
          testMode: true,
          refundedAt: null,
        },
      ],
    });
    const sale = listed.data!.data[0]!;
    expect(sale.id).toBe(pending.data.id);
    expect(sale.amountMinor).toBe(
      sale.feePlatformMinor + sale.feeProcessorMinor + sale.sellerEarningsMinor,
    );

    const refund = await script.POST('/api/v1/sales/{id}/refund', {
      params: { path: { id: sale.id } },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(refund.response.status, JSON.stringify(refund.error)).toBe(200);
    expect(refund.data).toMatchObject({ id: sale.id, status: 'refunded' });
    expect(refund.data!.refundedAt).not.toBeNull();

    await until(() => receiver.processed.length === 3, 'sale.refunded delivery');
    expect(verified(2)).toMatchObject({
      type: 'sale.refunded',
      data: { id: sale.id, status: 'refunded' },
    });

    // A live sale (stood in as if Flutterwave's live keys had taken it) is the live key's only:
    // the test key lists none, the live key lists it.
    await paymentsDb.query('UPDATE purchases SET test_mode = false WHERE id = $1', [sale.id]);
    const testAfter = await script.GET('/api/v1/sales');
    expect(testAfter.response.status).toBe(200);
    expect(testAfter.data!.data).toEqual([]);
    const liveAfter = await api.GET('/api/v1/sales');
    expect(liveAfter.data!.data.map((row) => [row.id, row.testMode])).toEqual([[sale.id, false]]);

    // A key with sales:read only cannot create products.
    const readOnly = await createKey(seller.context, 'live', ['sales:read']);
    expect(readOnly.status).toBe(201);
    const refused = await apiClient(readOnly.body.secret).POST('/api/v1/products', {
      body: { title: 'Not allowed', price: '1.00', fileId: file.data!.id },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ error: { code: 'insufficient_scope' } });

    // A revoked key is refused.
    const revoked = await seller.context.request.delete(
      `${baseUrl}/api/auth/api-keys/${created.body.apiKey.id}`,
    );
    expect(revoked.status()).toBe(204);
    const after = await api.GET('/api/v1/products/{id}', { params: { path: { id: productId } } });
    expect(after.response.status).toBe(401);
    expect(after.error).toMatchObject({ error: { code: 'invalid_api_key' } });
  }, 180_000);

  it('types the client from what /api/docs serves: every /api/v1 operation, as generated', async () => {
    const served = (await (await fetch(`${baseUrl}/api/docs/json`)).json()) as {
      paths: Record<string, unknown>;
    };
    const v1 = Object.fromEntries(
      Object.entries(served.paths).filter(([route]) => route.startsWith('/api/v1/')),
    );
    // npm run api:types writes the client's types from this document (tools/api-types.ts).
    expect(v1).toEqual((await buildApiV1Document()).paths);
  });
});

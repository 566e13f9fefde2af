import { randomUUID } from 'node:crypto';
import type { ApiKeyMode, ApiKeyScope } from '@lockdrop/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  browser,
  fetchJson,
  sell,
  startHarness,
  waitFor,
  type Harness,
  type TestUser,
  newSeller,
} from './support.js';

/**
 * Issue 27: the public API's money resources, as the gateway's `/api/v1` door hands them on — a
 * request carrying the internal token identity mints for an API key (scopes, mode). Real HTTP,
 * Postgres and NATS; sales and subscriptions are made through the sandbox like a buyer's.
 */
let harness: Harness;
const HOUR = 3_600_000;
const ALL_SCOPES: ApiKeyScope[] = [
  'sales:read',
  'refunds:write',
  'subscriptions:read',
  'subscriptions:write',
  'discounts:read',
  'discounts:write',
  'payouts:read',
];

beforeAll(async () => {
  harness = await startHarness({
    PUBLIC_URL: 'http://shop.test',
    SUPPORT_EMAILS: 'support@lockdrop.test',
    CHECKOUT_EMAIL_LIMIT: '100',
  });
});
afterAll(() => harness?.close());
beforeEach(() => {
  harness.clock.offsetMs = 0;
});

/** A client holding an API key of `seller` with these scopes and mode. */
function keyOf(seller: TestUser, mode: ApiKeyMode = 'test', scopes = ALL_SCOPES) {
  const call = async (method: string, path: string, body?: unknown) =>
    fetchJson(`${harness.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await harness.token({ ...seller, apiKey: { scopes, mode } })}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}

const saleOf = async (seller: TestUser, overrides = {}) =>
  sell(harness, { ownerId: seller.id, ...overrides });

/** Stands a sale in for a live one (as if Flutterwave live keys had taken it). */
const makeLive = (purchaseId: string) =>
  harness.pool.query('UPDATE purchases SET test_mode = false WHERE id = $1', [purchaseId]);

const purchaseRow = async (id: string) =>
  (await harness.pool.query('SELECT status, refunded_at FROM purchases WHERE id = $1', [id]))
    .rows[0];

describe('GET /api/v1/sales', () => {
  it('pages the seller’s sales newest first, with filters, and refuses a cursor not theirs', async () => {
    const seller = newSeller();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await saleOf(seller)).purchaseId);
    const other = await saleOf(newSeller());
    const api = keyOf(seller);

    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const response = await api.get(
        `/api/v1/sales?limit=2${cursor ? `&starting_after=${cursor}` : ''}`,
      );
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.object).toBe('list');
      seen.push(...body.data.map((sale: { id: string }) => sale.id));
      hasMore.push(body.has_more);
      cursor = body.data.at(-1)?.id;
    }
    expect(hasMore).toEqual([true, true, false]);
    // Newest first: the reverse of the order they were paid in; every sale once, no other's.
    expect(seen).toEqual([...ids].reverse());

    const first = (await (await api.get('/api/v1/sales?limit=1')).json()).data[0];
    expect(first).toMatchObject({
      object: 'sale',
      id: ids[4],
      amountMinor: 500_000,
      currency: 'NGN',
      status: 'paid',
      testMode: true,
      refundedAt: null,
    });
    expect(first.amountMinor).toBe(
      first.feePlatformMinor + first.feeProcessorMinor + first.sellerEarningsMinor,
    );
    expect(Date.parse(first.updatedAt)).toBeGreaterThan(0);

    for (const bad of [randomUUID(), other.purchaseId, 'not-an-id']) {
      const refused = await api.get(`/api/v1/sales?starting_after=${bad}`);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.code).toBe('invalid_cursor');
    }
    expect((await api.get('/api/v1/sales?limit=101')).status).toBe(400);

    // Filters: one product's sales; by status; by creation window.
    const { product, purchaseId } = await saleOf(seller);
    const byProduct = await (await api.get(`/api/v1/sales?productId=${product.productId}`)).json();
    expect(byProduct.data.map((sale: { id: string }) => sale.id)).toEqual([purchaseId]);
    expect((await (await api.get('/api/v1/sales?status=refunded')).json()).data).toEqual([]);
    const future = new Date(Date.now() + HOUR).toISOString();
    expect((await (await api.get(`/api/v1/sales?createdFrom=${future}`)).json()).data).toEqual([]);
    expect(
      (await (await api.get(`/api/v1/sales?createdBefore=${future}&limit=100`)).json()).data,
    ).toHaveLength(6);
    // A filter named as before the API was camelCase is refused, not ignored into every sale.
    const oldName = await api.get(`/api/v1/sales?product_id=${product.productId}`);
    expect(oldName.status).toBe(400);
    expect((await oldName.json()).error.code).toBe('validation_failed');
  });

  it('retrieves one sale; another seller’s is a 404', async () => {
    const seller = newSeller();
    const mine = await saleOf(seller);
    const theirs = await saleOf(newSeller());
    const api = keyOf(seller);
    const got = await api.get(`/api/v1/sales/${mine.purchaseId}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({
      id: mine.purchaseId,
      productId: mine.product.productId,
      buyerEmail: mine.buyerEmail,
      paymentReference: mine.txRef,
    });
    const refused = await api.get(`/api/v1/sales/${theirs.purchaseId}`);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe('sale_not_found');
  });
});

describe('test and live keys', () => {
  it('a test key never sees or refunds a live sale, and a live key never a test sale', async () => {
    const seller = newSeller();
    const testSale = await saleOf(seller);
    const liveSale = await saleOf(seller);
    await makeLive(liveSale.purchaseId);
    const testKey = keyOf(seller, 'test');
    const liveKey = keyOf(seller, 'live');

    const ids = async (key: ReturnType<typeof keyOf>) =>
      (await (await key.get('/api/v1/sales')).json()).data.map((sale: { id: string }) => sale.id);
    expect(await ids(testKey)).toEqual([testSale.purchaseId]);
    expect(await ids(liveKey)).toEqual([liveSale.purchaseId]);
    expect((await testKey.get(`/api/v1/sales/${liveSale.purchaseId}`)).status).toBe(404);
    expect((await liveKey.get(`/api/v1/sales/${testSale.purchaseId}`)).status).toBe(404);
    // A cursor from the other mode pages nothing.
    expect((await testKey.get(`/api/v1/sales?starting_after=${liveSale.purchaseId}`)).status).toBe(
      400,
    );

    const refused = await testKey.post(`/api/v1/sales/${liveSale.purchaseId}/refund`);
    expect(refused.status).toBe(404);
    expect(await purchaseRow(liveSale.purchaseId)).toMatchObject({ status: 'paid' });
    expect((await liveKey.post(`/api/v1/sales/${testSale.purchaseId}/refund`)).status).toBe(404);
    expect(await purchaseRow(testSale.purchaseId)).toMatchObject({ status: 'paid' });
  });
});

describe('POST /api/v1/sales/:id/refund', () => {
  it('refunds through the dashboard’s path once; the second is refused as the dashboard refuses it', async () => {
    const seller = newSeller();
    const { purchaseId } = await saleOf(seller);
    const api = keyOf(seller);
    const refunded = await api.post(`/api/v1/sales/${purchaseId}/refund`);
    expect(refunded.status).toBe(200);
    const sale = await refunded.json();
    expect(sale).toMatchObject({ object: 'sale', id: purchaseId, status: 'refunded' });
    expect(sale.refundedAt).not.toBeNull();
    await waitFor(() =>
      harness.published.some(
        (event) => event.type === 'purchase.refunded' && event.data.purchaseId === purchaseId,
      ),
    );

    const again = await api.post(`/api/v1/sales/${purchaseId}/refund`);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('already_refunded');
    const { rows } = await harness.pool.query(
      `SELECT count(*)::int AS n FROM refunds WHERE purchase_id = $1`,
      [purchaseId],
    );
    expect(rows[0].n).toBe(1);
    const listed = await (await api.get('/api/v1/sales?status=refunded')).json();
    expect(listed.data.map((s: { id: string }) => s.id)).toEqual([purchaseId]);
  });

  it('another seller’s key — even support’s — gets a 404 and changes nothing', async () => {
    const seller = newSeller();
    const { purchaseId } = await saleOf(seller);
    for (const intruder of [newSeller(), newSeller('support@lockdrop.test')]) {
      const refused = await keyOf(intruder).post(`/api/v1/sales/${purchaseId}/refund`);
      expect(refused.status).toBe(404);
      expect((await refused.json()).error.code).toBe('sale_not_found');
    }
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'paid', refunded_at: null });
    expect(harness.accessHolds.requests.some((hold) => hold.purchaseId === purchaseId)).toBe(false);
  });

  it('needs the refunds:write scope, and an API key rather than a session', async () => {
    const seller = newSeller();
    const { purchaseId } = await saleOf(seller);
    const readOnly = keyOf(seller, 'test', ['sales:read']);
    const refused = await readOnly.post(`/api/v1/sales/${purchaseId}/refund`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('insufficient_scope');
    expect((await readOnly.get(`/api/v1/sales/${purchaseId}`)).status).toBe(200);
    expect((await keyOf(seller, 'test', ['refunds:write']).get('/api/v1/sales')).status).toBe(403);

    const session = await fetchJson(`${harness.url}/api/v1/sales/${purchaseId}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await harness.token(seller)}` },
    });
    expect(session.status).toBe(401);
    expect((await session.json()).error.code).toBe('api_key_required');
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'paid' });
  });
});

/** A buyer subscribes to `productId` through the sandbox page; the subscription's id. */
async function subscribe(productId: string) {
  const client = browser(harness.url);
  const started = await client.postJson('/api/checkout', {
    productId,
    buyerEmail: `sub-${randomUUID()}@example.com`,
  });
  expect(started.status).toBe(200);
  const { txRef } = await started.json();
  await client.submitForm(`/sandbox/checkout/${txRef}/pay`);
  return waitFor(async () => {
    const { rows } = await harness.pool.query(
      `SELECT s.id FROM subscriptions s JOIN checkouts c ON c.id = s.first_checkout_id WHERE c.tx_ref = $1`,
      [txRef],
    );
    return rows[0]?.id as string | undefined;
  });
}

describe('/api/v1/subscriptions', () => {
  it('lists, retrieves and cancels the seller’s subscriptions; another seller’s key gets 404s', async () => {
    const seller = newSeller();
    const product = await harness.publishProduct({
      ownerId: seller.id,
      pricing: { type: 'recurring', interval: 'monthly' },
    });
    const first = await subscribe(product.productId);
    const second = await subscribe(product.productId);
    const api = keyOf(seller);

    const page1 = await (await api.get('/api/v1/subscriptions?limit=1')).json();
    expect(page1.data.map((s: { id: string }) => s.id)).toEqual([second]);
    expect(page1.has_more).toBe(true);
    const page2 = await (
      await api.get(`/api/v1/subscriptions?limit=1&starting_after=${second}`)
    ).json();
    expect(page2).toMatchObject({ has_more: false, data: [{ id: first }] });
    expect(page2.data[0]).toMatchObject({
      object: 'subscription',
      productId: product.productId,
      interval: 'monthly',
      status: 'active',
      cancelAtPeriodEnd: false,
      testMode: true,
    });

    const intruder = keyOf(newSeller());
    expect((await intruder.get(`/api/v1/subscriptions/${first}`)).status).toBe(404);
    const refused = await intruder.post(`/api/v1/subscriptions/${first}/cancel`);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe('subscription_not_found');
    expect((await (await intruder.get('/api/v1/subscriptions')).json()).data).toEqual([]);
    // A live key of the same seller sees no test subscription.
    const live = keyOf(seller, 'live');
    expect((await (await live.get('/api/v1/subscriptions')).json()).data).toEqual([]);
    expect((await live.post(`/api/v1/subscriptions/${first}/cancel`)).status).toBe(404);
    expect(
      (
        await keyOf(seller, 'test', ['subscriptions:read']).post(
          `/api/v1/subscriptions/${first}/cancel`,
        )
      ).status,
    ).toBe(403);
    const { rows: untouched } = await harness.pool.query(
      'SELECT cancel_at_period_end FROM subscriptions WHERE id = $1',
      [first],
    );
    expect(untouched[0].cancel_at_period_end).toBe(false);

    const cancelled = await api.post(`/api/v1/subscriptions/${first}/cancel`);
    expect(cancelled.status).toBe(200);
    const body = await cancelled.json();
    expect(body).toMatchObject({ id: first, status: 'active', cancelAtPeriodEnd: true });
    expect(body.accessUntil).toBe(body.currentPeriodEnd);
    await waitFor(() =>
      harness.published.some(
        (event) => event.type === 'subscription.cancelled' && event.data.subscriptionId === first,
      ),
    );
    expect(await (await api.get(`/api/v1/subscriptions/${first}`)).json()).toMatchObject({
      cancelAtPeriodEnd: true,
    });
  });
});

describe('/api/v1/discount-codes', () => {
  it('creates, reads, pages, partly updates and deletes codes through the dashboard’s rules', async () => {
    const seller = newSeller();
    const product = await harness.publishProduct({ ownerId: seller.id, currency: 'USD' });
    const api = keyOf(seller);

    const created = await api.post('/api/v1/discount-codes', {
      code: 'LAUNCH20',
      kind: 'percent',
      percentOff: 20,
    });
    expect(created.status).toBe(201);
    const code = await created.json();
    expect(code).toMatchObject({
      object: 'discount_code',
      code: 'LAUNCH20',
      percentOff: 20,
      productIds: null,
      active: true,
      state: 'active',
      uses: 0,
    });
    const fixed = await (
      await api.post('/api/v1/discount-codes', {
        code: 'FIVE-OFF',
        kind: 'fixed',
        amountOffMinor: 250,
        currency: 'USD',
        productIds: [product.productId],
      })
    ).json();
    expect(fixed).toMatchObject({ amountOffMinor: 250, currency: 'USD' });

    // The dashboard's validation, in its words.
    const bad = await api.post('/api/v1/discount-codes', {
      code: 'TOO-MUCH',
      kind: 'percent',
      percentOff: 150,
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_discount');
    const taken = await api.post('/api/v1/discount-codes', {
      code: 'launch20',
      kind: 'percent',
      percentOff: 5,
    });
    expect(taken.status).toBe(409);
    const foreign = await api.post('/api/v1/discount-codes', {
      code: 'NOT-MINE',
      kind: 'percent',
      percentOff: 5,
      productIds: [(await harness.publishProduct()).productId],
    });
    expect(foreign.status).toBe(400);
    // The dashboard's decimal `amountOff` is not the API's: refused, not read as minor units.
    const decimal = await api.post('/api/v1/discount-codes', {
      code: 'DECIMAL',
      kind: 'fixed',
      amountOff: '2.50',
      currency: 'USD',
    });
    expect(decimal.status).toBe(400);
    expect((await decimal.json()).error.code).toBe('validation_failed');

    const page1 = await (await api.get('/api/v1/discount-codes?limit=1')).json();
    expect(page1).toMatchObject({ has_more: true, data: [{ id: fixed.id }] });
    const page2 = await (
      await api.get(`/api/v1/discount-codes?limit=1&starting_after=${fixed.id}`)
    ).json();
    expect(page2).toMatchObject({ has_more: false, data: [{ id: code.id }] });

    const patched = await api.patch(`/api/v1/discount-codes/${code.id}`, { percentOff: 30 });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ code: 'LAUNCH20', percentOff: 30, active: true });
    const patchedFixed = await (
      await api.patch(`/api/v1/discount-codes/${fixed.id}`, { amountOffMinor: 300, active: false })
    ).json();
    expect(patchedFixed).toMatchObject({
      amountOffMinor: 300,
      currency: 'USD',
      productIds: [product.productId],
      active: false,
      state: 'inactive',
    });

    // Another seller's key: 404 on every route, and the code is as it was.
    const intruder = keyOf(newSeller());
    expect((await intruder.get(`/api/v1/discount-codes/${code.id}`)).status).toBe(404);
    expect(
      (await intruder.patch(`/api/v1/discount-codes/${code.id}`, { active: false })).status,
    ).toBe(404);
    expect((await intruder.delete(`/api/v1/discount-codes/${code.id}`)).status).toBe(404);
    expect((await (await intruder.get('/api/v1/discount-codes')).json()).data).toEqual([]);
    expect(await (await api.get(`/api/v1/discount-codes/${code.id}`)).json()).toMatchObject({
      percentOff: 30,
      active: true,
    });
    expect(
      (await keyOf(seller, 'test', ['discounts:read']).delete(`/api/v1/discount-codes/${code.id}`))
        .status,
    ).toBe(403);

    const deleted = await api.delete(`/api/v1/discount-codes/${code.id}`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ object: 'discount_code', id: code.id, deleted: true });
    expect((await api.get(`/api/v1/discount-codes/${code.id}`)).status).toBe(404);
  });
});

describe('/api/v1/payouts and /api/v1/balances', () => {
  it('show the seller’s payouts and balances of the key’s mode only', async () => {
    const seller = newSeller();
    const session = async (method: string, path: string, body?: unknown) =>
      fetchJson(`${harness.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await harness.token(seller)}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const { accountName } = await (
      await session('POST', '/api/payouts/resolve-account', {
        bankCode: '058',
        accountNumber: '0123456789',
      })
    ).json();
    expect(
      (
        await session('PUT', '/api/payouts/destination', {
          method: 'bank',
          bankCode: '058',
          accountNumber: '0123456789',
          accountName,
        })
      ).status,
    ).toBe(200);
    const sale = await saleOf(seller);
    const { rows } = await harness.pool.query(
      'SELECT seller_earnings_minor::int AS e FROM purchases WHERE id = $1',
      [sale.purchaseId],
    );
    const earnings = rows[0].e as number;

    const testKey = keyOf(seller, 'test');
    const pending = await (await testKey.get('/api/v1/balances')).json();
    expect(pending).toMatchObject({
      object: 'balances',
      testMode: true,
      balances: [{ currency: 'NGN', pendingMinor: earnings, availableMinor: 0 }],
    });
    expect(pending.releases).toEqual([
      expect.objectContaining({ currency: 'NGN', amountMinor: earnings }),
    ]);
    // The live key of the same seller: none of the test money.
    const liveKey = keyOf(seller, 'live');
    expect(await (await liveKey.get('/api/v1/balances')).json()).toMatchObject({
      testMode: false,
      balances: [],
      releases: [],
    });

    harness.clock.offsetMs = 25 * HOUR;
    const withdraw = await session('POST', '/api/payouts/withdraw');
    expect(withdraw.status).toBe(202);
    const payoutId = (await withdraw.json()).payouts[0].id as string;

    const listed = await testKey.get('/api/v1/payouts');
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({
      object: 'list',
      has_more: false,
      data: [{ object: 'payout', id: payoutId, amountMinor: earnings, testMode: true }],
    });
    expect(await (await testKey.get('/api/v1/balances')).json()).toMatchObject({
      balances: [{ currency: 'NGN', pendingMinor: 0, availableMinor: 0, inTransitMinor: earnings }],
    });
    expect((await (await liveKey.get('/api/v1/payouts')).json()).data).toEqual([]);

    // Another seller: no payout of this one, and its id is no cursor for them.
    const intruder = keyOf(newSeller());
    expect((await (await intruder.get('/api/v1/payouts')).json()).data).toEqual([]);
    expect((await intruder.get(`/api/v1/payouts?starting_after=${payoutId}`)).status).toBe(400);
    expect((await (await intruder.get('/api/v1/balances')).json()).balances).toEqual([]);
    expect((await keyOf(seller, 'test', ['sales:read']).get('/api/v1/payouts')).status).toBe(403);
  });
});

describe('the OpenAPI document', () => {
  it('describes every money operation of /api/v1 with a summary, a v1 tag and the API-key scheme', async () => {
    const document = await (await fetchJson(`${harness.url}/openapi.json`)).json();
    const operations = Object.entries(
      document.paths as Record<string, Record<string, Record<string, unknown>>>,
    )
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
      );
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      [
        'get /api/v1/balances',
        'get /api/v1/discount-codes',
        'post /api/v1/discount-codes',
        'get /api/v1/discount-codes/{id}',
        'patch /api/v1/discount-codes/{id}',
        'delete /api/v1/discount-codes/{id}',
        'get /api/v1/payouts',
        'get /api/v1/sales',
        'get /api/v1/sales/{id}',
        'post /api/v1/sales/{id}/refund',
        'get /api/v1/subscriptions',
        'get /api/v1/subscriptions/{id}',
        'post /api/v1/subscriptions/{id}/cancel',
      ].sort(),
    );
    for (const { operation } of operations) {
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.tags).toEqual([expect.stringMatching(/^v1: /)]);
      expect(operation.security).toEqual([{ apiKey: [] }]);
    }
  });
});

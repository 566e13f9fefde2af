import { randomBytes } from 'node:crypto';
import {
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
  type Seller,
} from '../catalog/support.js';
import type { HttpServer } from '@lockdrop/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorefrontHarness, httpGetter, type StorefrontHarness } from './support.js';

// GET /api/products/:id through a real gateway in front of a real catalog on a real bus.
let harness: StorefrontHarness;
let catalog: CatalogHarness;
let gateway: HttpServer;
let seller: Seller;

beforeAll(async () => {
  harness = await createStorefrontHarness();
  ({ catalog, gateway } = harness);
  get = httpGetter(gateway);
  seller = await catalog.seller();
});
afterAll(() => harness?.close());

/** A published product whose events have gone by (see `published` in support.ts). */
async function publishedProduct(overrides: Record<string, unknown> = {}): Promise<string> {
  const product = await makeProduct(catalog, seller, overrides);
  await publish(catalog, seller, product.id);
  await harness.published(product.id);
  return product.id;
}

// Over a real socket: kept reads are answered before Fastify, where `inject` never goes.
let get: ReturnType<typeof httpGetter>;
const read = (id: string, headers: Record<string, string> = {}, query = '') =>
  get(`/api/products/${id}${query}`, headers);

/**
 * Reads through the gateway until `accept` holds. The change must arrive by its event, well
 * before the entries' 1 s age bound would let it through anyway.
 */
async function seenWithinASecond(
  id: string,
  accept: (response: Awaited<ReturnType<typeof read>>) => boolean,
): Promise<void> {
  const changedAt = Date.now();
  await waitUntil(() => read(id), accept, 1_000);
  expect(Date.now() - changedAt).toBeLessThan(600);
}

async function productReadsCounted(app: HttpServer, metric: string): Promise<number> {
  const metrics = (await app.inject({ url: '/metrics' })).body;
  return [
    ...metrics.matchAll(
      new RegExp(`${metric}\\{[^}]*route="/api/products/:id"[^}]*\\} (\\d+)`, 'g'),
    ),
  ].reduce((sum, match) => sum + Number(match[1]), 0);
}
const catalogReads = () => productReadsCounted(catalog.app, 'http_request_duration_seconds_count');
const earlyAnswers = (app = gateway) => productReadsCounted(app, 'gateway_early_answers_total');

describe('anonymous product reads', () => {
  it('are answered by the gateway with the bytes catalog answers, a visitor cookie and an ETag', async () => {
    const id = await publishedProduct({ title: 'Lagos night drums' });
    const direct = await catalog.app.inject({ url: `/api/products/${id}?countView=false` });
    const response = await read(id, { 'user-agent': 'Phone A' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-served-by']).toBe('gateway');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(direct.body);
    expect(response.json()).toMatchObject({ id, title: 'Lagos night drums', viewerIsOwner: false });
    const cookie = response.cookies.find((entry) => entry.name === 'ld_vid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie!.value).toMatch(/^[a-f0-9]{32}$/);

    const again = await read(id, {
      'user-agent': 'Phone A',
      cookie: `ld_vid=${cookie!.value}`,
      'if-none-match': String(response.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.cookies).toHaveLength(0);
  });

  it('answer a draft, an unknown id and a bad currency as catalog does', async () => {
    const draft = await makeProduct(catalog, seller);
    const unknown = await read('0d5e0c7a-9a8f-4c51-a1de-3b1c2f7e9d10');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('product_not_found');
    expect((await read(draft.id)).statusCode).toBe(404);
    const id = await publishedProduct();
    const badCurrency = await read(id, {}, '?currency=XYZ');
    expect(badCurrency.statusCode).toBe(400);
    expect(badCurrency.json().error).toMatchObject({ code: expect.any(String) });
    const notUuid = await read('not-a-product');
    expect(notUuid.statusCode).toBe(404);
  });

  it('cost catalog one read for a crowd arriving at once', async () => {
    const id = await publishedProduct();
    const before = await catalogReads();
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, n) => read(id, { 'user-agent': `Crowd ${n}` })),
    );
    const elapsedMs = Date.now() - started;
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    // One read per entry lifetime (1 s): on a loaded machine the crowd can outlast the first
    // entry, and then one more read per second is right; without sharing it would be ~50.
    expect((await catalogReads()) - before).toBeLessThanOrEqual(1 + Math.floor(elapsedMs / 1_000));
  });

  it('count each visitor once per product per day in catalog, cookie-less first read included', async () => {
    const id = await publishedProduct();
    const phone = { 'user-agent': 'Mozilla/5.0 (Android 14)' };
    const first = await read(id, phone, '?referrer=https%3A%2F%2Fx.com%2Fpost');
    const cookie = first.cookies.find((entry) => entry.name === 'ld_vid')!.value;
    await read(id, phone);
    await read(id, { ...phone, cookie: `ld_vid=${cookie}` });
    await read(id, { 'user-agent': 'Desktop Firefox' });
    // Building a link preview, or a read that asks not to count, is not a view.
    await read(id, { 'user-agent': 'Slackbot' }, '?countView=false');
    await gateway.inject({ url: `/product/${id}`, headers: { 'user-agent': 'Twitterbot' } });
    // A watermark instead of a sleep: a later visitor's view is counted after everything before it.
    await read(id, { 'user-agent': 'Watermark visitor' }, '?referrer=https%3A%2F%2Fwatermark.test');

    const views = await waitUntil(
      () => catalog.outbox('product.viewed', id),
      (found) => found.some((view) => view.data.referrer === 'https://watermark.test'),
    );
    expect(views.map((view) => view.data.referrer).sort()).toEqual(
      ['https://x.com/post', null, 'https://watermark.test'].sort(),
    );
    expect(views[0]!.data.visitorId).toMatch(/^[a-f0-9]{64}$/);
    expect(views[0]!.data.visitorId).not.toContain(cookie);
  });
});

describe('kept reads answered before the framework', () => {
  /** What may differ between two answers of the same read a moment apart. */
  const perAnswer = ['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
  const comparable = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !perAnswer.includes(name)));

  it('carry the same headers, visitor cookie and bytes as the read that loaded the product', async () => {
    const id = await publishedProduct();
    const browser = { 'user-agent': 'Phone B' };
    const before = await earlyAnswers();
    const loaded = await read(id, browser);
    expect(await earlyAnswers()).toBe(before);
    const kept = await read(id, browser);
    expect(await earlyAnswers()).toBe(before + 1);

    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe(loaded.body);
    expect(comparable(kept.headers)).toEqual(comparable(loaded.headers));
    expect(kept.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(kept.headers['x-content-type-options']).toBe('nosniff');
    expect(kept.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(kept.headers['x-request-id']).not.toBe(loaded.headers['x-request-id']);
    expect(Number(kept.headers['x-ratelimit-remaining'])).toBe(
      Number(loaded.headers['x-ratelimit-remaining']) - 1,
    );
    // The same browser gets the same visitor key whichever path answered.
    expect(kept.cookies).toEqual(loaded.cookies);

    const revalidated = await read(id, { ...browser, 'if-none-match': kept.headers.etag! });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(await earlyAnswers()).toBe(before + 2);
  });

  it('count into the same per-client budget as the route, and leave refusals to it', async () => {
    const limited = await harness.buildGateway({ RATE_LIMIT_PER_MINUTE: '3' });
    const limitedGet = httpGetter(limited);
    const id = await publishedProduct();
    const answers = [];
    for (let n = 0; n < 4; n += 1) answers.push(await limitedGet(`/api/products/${id}`));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers.map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual([
      '2',
      '1',
      '0',
      '0',
    ]);
    expect(answers[3]!.json().error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^Too many requests, please try again in \d+ (seconds?|minute)$/,
      ),
    });
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(await earlyAnswers(limited)).toBe(2);
  });

  it('see the client and scheme behind a trusted proxy as Fastify does', async () => {
    // Two proxies: the one the test is (loopback) and 10.0.0.1 before it.
    const proxied = await harness.buildGateway({ TRUST_PROXY: '2' });
    const proxiedGet = httpGetter(proxied);
    const id = await publishedProduct();
    const from = (address: string) => ({
      'user-agent': 'Shared UA',
      'x-forwarded-for': `${address}, 10.0.0.1`,
      'x-forwarded-proto': 'https',
    });
    const first = await proxiedGet(`/api/products/${id}`, from('198.51.100.7'));
    const again = await proxiedGet(`/api/products/${id}`, from('198.51.100.7'));
    const other = await proxiedGet(`/api/products/${id}`, from('203.0.113.9'));
    expect(await earlyAnswers(proxied)).toBe(2);
    expect(again.cookies).toEqual(first.cookies);
    expect(other.cookies[0]!.value).not.toBe(first.cookies[0]!.value);
    expect(first.cookies[0]).toMatchObject({ secure: true });
    expect(again.cookies[0]).toMatchObject({ secure: true });
  });

  it('leave signed-in readers, odd queries and HEAD to the route', async () => {
    const id = await publishedProduct();
    await read(id);
    const before = await earlyAnswers();
    expect((await read(id, seller.auth)).headers['x-served-by']).toBe('catalog');
    expect((await read(id, {}, '?currency=XYZ')).statusCode).toBe(400);
    expect((await read(id, {}, '?referrer=a&referrer=b')).statusCode).toBe(400);
    expect((await read(id, {}, '?referrer=%00')).statusCode).toBe(400);
    const head = await gateway.inject({ method: 'HEAD', url: `/api/products/${id}` });
    expect(head.statusCode).toBe(200);
    expect(await earlyAnswers()).toBe(before);
  });
});

describe('what changes a product reaches the storefront within a second', () => {
  it('an edit, unpublishing, publishing again and deleting', async () => {
    const id = await publishedProduct({ title: 'Before' });
    expect((await read(id)).json().title).toBe('Before');

    const edited = await catalog.app.inject({
      method: 'PATCH',
      url: `/api/products/${id}`,
      headers: seller.auth,
      payload: { title: 'After' },
    });
    expect(edited.statusCode).toBe(200);
    await seenWithinASecond(id, (response) => response.json().title === 'After');

    const setStatus = (status: 'draft' | 'published') =>
      catalog.app.inject({
        method: 'POST',
        url: `/api/products/${id}/status`,
        headers: seller.auth,
        payload: { status },
      });
    expect((await setStatus('draft')).statusCode).toBe(200);
    await seenWithinASecond(id, (response) => response.statusCode === 404);
    expect((await setStatus('published')).statusCode).toBe(200);
    await seenWithinASecond(id, (response) => response.statusCode === 200);

    const deleted = await catalog.app.inject({
      method: 'DELETE',
      url: `/api/products/${id}`,
      headers: seller.auth,
    });
    expect(deleted.statusCode).toBe(204);
    await seenWithinASecond(id, (response) => response.statusCode === 404);
  });
});

describe('signed-in product reads', () => {
  it('are answered by catalog: the owner sees a draft, and is not counted as a view', async () => {
    const draft = await makeProduct(catalog, seller);
    const own = await read(draft.id, seller.auth);
    expect(own.statusCode).toBe(200);
    expect(own.headers['x-served-by']).toBe('catalog');
    expect(own.json()).toMatchObject({ id: draft.id, viewerIsOwner: true, status: 'draft' });

    const id = await publishedProduct();
    await read(id, seller.auth);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await catalog.outbox('product.viewed', id)).toHaveLength(0);
  });

  it('count another signed-in reader under the visitor id the gateway assigns, never one the client claims', async () => {
    const id = await publishedProduct();
    const buyer = await catalog.seller();
    const claimed = randomBytes(32).toString('hex');
    const response = await read(id, { ...buyer.auth, 'x-visitor-id': claimed });
    expect(response.statusCode).toBe(200);
    expect(response.json().viewerIsOwner).toBe(false);
    expect(response.cookies.find((entry) => entry.name === 'ld_vid')).toBeDefined();
    const [view] = await catalog.outbox('product.viewed', id);
    expect(view!.data.visitorId).toMatch(/^[a-f0-9]{64}$/);
    expect(view!.data.visitorId).not.toBe(claimed);
  });
});

describe('without catalog', () => {
  it('answers 502 in the error shape', async () => {
    const cut = await harness.buildGateway({ CATALOG_URL: 'http://127.0.0.1:9' });
    const id = await publishedProduct();
    for (const headers of [{}, seller.auth]) {
      const response = await cut.inject({ url: `/api/products/${id}`, headers });
      expect(response.statusCode).toBe(502);
      expect(response.json().error.code).toBe('service_unavailable');
    }
  });
});

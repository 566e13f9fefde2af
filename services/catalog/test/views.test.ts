import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  type CatalogHarness,
  type Seller,
} from './support.js';

let harness: CatalogHarness;
let seller: Seller;

beforeAll(async () => {
  harness = await createCatalogHarness();
  seller = await harness.seller();
});
afterAll(() => harness?.close());

async function publishedProduct(): Promise<string> {
  const product = await makeProduct(harness, seller);
  await publish(harness, seller, product.id);
  return product.id;
}

const read = (id: string, headers: Record<string, string> = {}, query = '') =>
  harness.app.inject({ url: `/api/products/${id}${query}`, headers });

const visitorCookie = (response: Awaited<ReturnType<typeof read>>) =>
  response.cookies.find((cookie) => cookie.name === 'ld_vid');

describe('product.viewed', () => {
  it('refuses a referrer holding a NUL with 400 instead of failing in the database', async () => {
    const id = await publishedProduct();
    const response = await read(id, {}, '?referrer=%00x');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_characters');
  });

  it('is emitted once per visitor per product per UTC day, the cookie-less first read included', async () => {
    harness.setNow(new Date('2031-06-01T08:00:00Z'));
    try {
      const id = await publishedProduct();
      const browser = { 'user-agent': 'Mozilla/5.0 (Android 14)', 'x-forwarded-for': '102.89.0.7' };
      const first = await read(id, browser, '?referrer=https%3A%2F%2Fx.com%2Fpost');
      const cookie = visitorCookie(first);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      // Same browser later that day, now sending its cookie, even from another network.
      await read(id, {
        ...browser,
        'x-forwarded-for': '41.190.2.2',
        cookie: `ld_vid=${cookie!.value}`,
      });
      harness.setNow(new Date('2031-06-01T23:59:59Z'));
      await read(id, { ...browser, cookie: `ld_vid=${cookie!.value}` });

      const sameDay = await harness.outbox('product.viewed', id);
      expect(sameDay).toHaveLength(1);
      expect(sameDay[0]!.data).toEqual({
        productId: id,
        visitorId: expect.stringMatching(/^[a-f0-9]{64}$/),
        day: '2031-06-01',
        referrer: 'https://x.com/post',
      });
      // The visitor id is a keyed hash: neither the IP nor the cookie value appears in it.
      expect(sameDay[0]!.data.visitorId).not.toContain(cookie!.value);

      harness.setNow(new Date('2031-06-02T00:00:01Z'));
      await read(id, { ...browser, cookie: `ld_vid=${cookie!.value}` });
      const events = await harness.outbox('product.viewed', id);
      expect(events.map((event) => event.data.day)).toEqual(['2031-06-01', '2031-06-02']);
      expect(events[1]!.data.visitorId).toBe(events[0]!.data.visitorId);
    } finally {
      harness.setNow(null);
    }
  });

  it('counts different visitors separately', async () => {
    const id = await publishedProduct();
    await read(id, { 'user-agent': 'Phone A', 'x-forwarded-for': '102.89.0.7' });
    await read(id, { 'user-agent': 'Phone B', 'x-forwarded-for': '102.89.0.7' });
    await read(id, { 'user-agent': 'Phone A', 'x-forwarded-for': '105.112.0.9' });
    const events = await harness.outbox('product.viewed', id);
    expect(new Set(events.map((event) => event.data.visitorId)).size).toBe(3);
  });

  it('is not emitted for the owner, for drafts, or for reads that ask not to count', async () => {
    const id = await publishedProduct();
    const draft = await makeProduct(harness, seller);
    await read(id, seller.auth);
    await read(draft.id, seller.auth);
    await read(id, { 'user-agent': 'share-page' }, '?countView=false');
    expect(await harness.outbox('product.viewed', id)).toHaveLength(0);
    expect(await harness.outbox('product.viewed', draft.id)).toHaveLength(0);
  });

  it('ignores a tampered visitor cookie and issues a proper one', async () => {
    const id = await publishedProduct();
    const response = await read(id, { cookie: 'ld_vid=<script>', 'user-agent': 'UA' });
    expect(visitorCookie(response)?.value).toMatch(/^[a-f0-9]{32}$/);
  });
});

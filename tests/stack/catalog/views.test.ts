import { randomBytes, randomUUID } from 'node:crypto';
import type { Bus } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  waitUntil,
  type CatalogHarness,
  type Seller,
} from './support.js';

// The gateway identifies visitors (ld_vid cookie → keyed hash); catalog counts their views:
// inline for reads it answers (the gateway's `x-visitor-id`), in batches for the reads the
// gateway answered from its cache (`storefront.products_viewed`). See services/gateway.
let harness: CatalogHarness;
let seller: Seller;
let bus: Bus;

beforeAll(async () => {
  harness = await createCatalogHarness();
  seller = await harness.seller();
  bus = await harness.connectBus();
});
afterAll(() => harness?.close());

async function publishedProduct(): Promise<string> {
  const product = await makeProduct(harness, seller);
  await publish(harness, seller, product.id);
  return product.id;
}

const visitorId = () => randomBytes(32).toString('hex');

const read = (id: string, headers: Record<string, string> = {}, query = '') =>
  harness.app.inject({ url: `/api/products/${id}${query}`, headers });

const storefrontViews = (
  views: Array<{ productId: string; visitorId: string; viewedAt: string; referrer?: string }>,
) =>
  createEvent(
    'storefront.products_viewed',
    {
      views: views.map((view) => ({
        referrer: null,
        requestId: `req-${randomUUID()}`,
        ...view,
      })),
    },
    { correlationId: 'test' },
  );

describe('views of reads catalog answers (x-visitor-id from the gateway)', () => {
  it('refuses a referrer holding a NUL with 400 instead of failing in the database', async () => {
    const id = await publishedProduct();
    const response = await read(id, { 'x-visitor-id': visitorId() }, '?referrer=%00x');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_characters');
  });

  it('emits product.viewed once per visitor per product per UTC day', async () => {
    harness.setNow(new Date('2031-06-01T08:00:00Z'));
    try {
      const id = await publishedProduct();
      const visitor = { 'x-visitor-id': visitorId() };
      const buyer = await harness.seller();
      await read(id, { ...visitor, ...buyer.auth }, '?referrer=https%3A%2F%2Fx.com%2Fpost');
      await read(id, visitor);
      harness.setNow(new Date('2031-06-01T23:59:59Z'));
      await read(id, visitor);

      const sameDay = await harness.outbox('product.viewed', id);
      expect(sameDay.map((event) => event.data)).toEqual([
        {
          productId: id,
          visitorId: visitor['x-visitor-id'],
          day: '2031-06-01',
          referrer: 'https://x.com/post',
        },
      ]);

      harness.setNow(new Date('2031-06-02T00:00:01Z'));
      await read(id, visitor);
      const events = await harness.outbox('product.viewed', id);
      expect(events.map((event) => event.data.day)).toEqual(['2031-06-01', '2031-06-02']);
    } finally {
      harness.setNow(null);
    }
  });

  it('is not emitted for the owner, for drafts, for reads that ask not to count, or without a visitor', async () => {
    const id = await publishedProduct();
    const draft = await makeProduct(harness, seller);
    await read(id, { ...seller.auth, 'x-visitor-id': visitorId() });
    await read(draft.id, { ...seller.auth, 'x-visitor-id': visitorId() });
    await read(id, { 'x-visitor-id': visitorId() }, '?countView=false');
    await read(id, {});
    await read(id, { 'x-visitor-id': 'not-a-hash' });
    expect(await harness.outbox('product.viewed', id)).toHaveLength(0);
    expect(await harness.outbox('product.viewed', draft.id)).toHaveLength(0);
  });
});

describe('storefront.products_viewed (views of reads the gateway answered)', () => {
  it('counts each view once per visitor per product per UTC day, across batches and redeliveries', async () => {
    const id = await publishedProduct();
    const [a, b] = [visitorId(), visitorId()];
    const batch = storefrontViews([
      {
        productId: id,
        visitorId: a,
        viewedAt: '2031-07-01T10:00:00.000Z',
        referrer: 'https://t.co/x',
      },
      { productId: id, visitorId: a, viewedAt: '2031-07-01T10:00:01.000Z' },
      { productId: id, visitorId: b, viewedAt: '2031-07-01T23:59:59.000Z' },
    ]);
    await bus.publish(batch);
    // The same batch again (a redelivery) and a later batch repeating visitor a that day.
    await bus.publish(batch);
    await bus.publish(
      storefrontViews([
        { productId: id, visitorId: a, viewedAt: '2031-07-01T18:00:00.000Z' },
        { productId: id, visitorId: a, viewedAt: '2031-07-02T00:00:00.000Z' },
      ]),
    );
    const events = await waitUntil(
      () => harness.outbox('product.viewed', id),
      (found) => found.length >= 3,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = await harness.outbox('product.viewed', id);
    expect(settled).toHaveLength(3);
    expect(
      settled.map((event) => [event.data.visitorId, event.data.day, event.data.referrer]),
    ).toEqual(
      expect.arrayContaining([
        [a, '2031-07-01', 'https://t.co/x'],
        [b, '2031-07-01', null],
        [a, '2031-07-02', null],
      ]),
    );
    expect(events.every((event) => event.correlationId.startsWith('req-'))).toBe(true);
  });

  it('does not count views of a product that is no longer published', async () => {
    const id = await publishedProduct();
    const counted = await publishedProduct();
    const unpublished = await harness.app.inject({
      method: 'POST',
      url: `/api/products/${id}/status`,
      headers: seller.auth,
      payload: { status: 'draft' },
    });
    expect(unpublished.statusCode).toBe(200);
    const viewedAt = new Date().toISOString();
    await bus.publish(
      storefrontViews([
        { productId: id, visitorId: visitorId(), viewedAt },
        { productId: counted, visitorId: visitorId(), viewedAt },
      ]),
    );
    await waitUntil(
      () => harness.outbox('product.viewed', counted),
      (found) => found.length === 1,
    );
    expect(await harness.outbox('product.viewed', id)).toHaveLength(0);
  });
});

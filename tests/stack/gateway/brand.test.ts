import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct, publish, waitUntil, type Seller } from '../catalog/support.js';
import { createProductReads } from '@lockdrop/gateway/src/storefront/product-reads.js';
import { createStorefrontHarness, httpGetter, type StorefrontHarness } from './support.js';

let harness: StorefrontHarness;
let get: ReturnType<typeof httpGetter>;
let seller: Seller;

beforeAll(async () => {
  harness = await createStorefrontHarness();
  get = httpGetter(harness.gateway);
  seller = await harness.catalog.seller({ plan: 'pro' });
});
afterAll(() => harness?.close());

const tag = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key.replace(':', '\\:')}" content="([^"]*)" />`).exec(
    html,
  )?.[1];

const saveBrand = (name: string, accentColour: string | null) =>
  harness.catalog.app.inject({
    method: 'PUT',
    url: '/api/brand',
    headers: seller.auth,
    payload: { handle: `gw-brand-${process.pid}`, name, accentColour },
  });

describe('a Pro seller’s brand through the gateway', () => {
  it('names the store in the share card, and a new brand reaches the crowd’s reads within a second', async () => {
    expect((await saveBrand('Dawn Recordings', '#1d4ed8')).statusCode).toBe(200);
    const product = await makeProduct(harness.catalog, seller, { previewEnabled: false });
    await publish(harness.catalog, seller, product.id);
    await harness.published(product.id);

    const html = (await get(`/product/${product.id}`)).body;
    expect(tag(html, 'og:site_name')).toBe('Dawn Recordings');
    expect(html).toContain(`<title>${product.title} · Dawn Recordings</title>`);
    expect(tag(html, 'og:image')).toBe('https://lockdrop.example/og-image.png');

    // The crowd's read is kept in the gateway's memory; a new brand must not wait for it to age.
    const read = async () => (await get(`/api/products/${product.id}`)).json().brand?.name;
    expect(await read()).toBe('Dawn Recordings');
    expect(await read()).toBe('Dawn Recordings');
    expect((await saveBrand('Dusk Recordings', null)).statusCode).toBe(200);
    await waitUntil(read, (name) => name === 'Dusk Recordings', 900);

    const store = await get(`/api/stores/gw-brand-${process.pid}`);
    expect(store.statusCode).toBe(200);
    expect(store.json().products.map((p: { id: string }) => p.id)).toEqual([product.id]);
    expect((await get('/api/stores/no-such-store')).statusCode).toBe(404);
  });

  it('drops kept reads of that seller on store.brand_updated, not when they age', async () => {
    const product = await makeProduct(harness.catalog, seller);
    await publish(harness.catalog, seller, product.id);
    // An hour-long memory: only the event can make the new brand show.
    const reads = createProductReads({
      catalogUrl: harness.catalogUrl,
      isLive: () => true,
      maxAgeMs: 3_600_000,
    });
    const brandName = async () =>
      JSON.parse((await reads.get(product.id, null, 'test')).body).brand?.name;
    expect((await saveBrand('Noon Recordings', null)).statusCode).toBe(200);
    expect(await brandName()).toBe('Noon Recordings');
    expect((await saveBrand('Night Recordings', null)).statusCode).toBe(200);
    expect(await brandName()).toBe('Noon Recordings');
    const events = await harness.catalog.outbox('store.brand_updated');
    reads.onEvent(events.at(-1)!);
    expect(await brandName()).toBe('Night Recordings');
  });
});

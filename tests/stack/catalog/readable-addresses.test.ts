import { shortIdOf } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogHarness, makeProduct, publish, type CatalogHarness } from './support.js';

/**
 * Readable product addresses (issue 29): `/p/<slug>-<shortId>` names a product by its short id
 * (its id's first 64 bits), so catalog reads a product by it, and never gives two products one.
 */
let catalog: CatalogHarness;
/** Ids the next creations take, in order; then random ones. */
const nextIds: string[] = [];

beforeAll(async () => {
  catalog = await createCatalogHarness(
    {},
    { newProductId: () => nextIds.shift() ?? globalThis.crypto.randomUUID() },
  );
});

afterAll(() => catalog?.close());

describe('products by short id', () => {
  it('reads a published product by its short id, and a draft by it only for its owner', async () => {
    const seller = await catalog.seller();
    const product = await makeProduct(catalog, seller, { title: 'Lagos at dawn' });
    const shortId = shortIdOf(product.id);

    const draftRead = await catalog.app.inject({ url: `/api/products/${shortId}` });
    expect(draftRead.statusCode).toBe(404);
    const ownRead = await catalog.app.inject({
      url: `/api/products/${shortId}`,
      headers: seller.auth,
    });
    expect(ownRead.statusCode).toBe(200);
    expect(ownRead.json().id).toBe(product.id);

    await publish(catalog, seller, product.id);
    const read = await catalog.app.inject({ url: `/api/products/${shortId}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: product.id, title: 'Lagos at dawn' });
    // A well-formed short id nobody has.
    const unknown = await catalog.app.inject({
      url: `/api/products/${shortIdOf('00000000-0000-4000-8000-000000000001')}`,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('never gives a new product the short id of another, live or deleted', async () => {
    const seller = await catalog.seller();
    const first = '5a1d2c3b-4e5f-4a6b-8c7d-000000000001';
    // Same first 64 bits as `first`, so the same short id; then one that differs there.
    const clash = '5a1d2c3b-4e5f-4a6b-9999-999999999999';
    const free = '6b2e3d4c-5f60-4b7c-8d8e-000000000002';
    nextIds.push(first);
    const a = await makeProduct(catalog, seller);
    expect(a.id).toBe(first);

    nextIds.push(clash, free);
    const b = await makeProduct(catalog, seller);
    expect(b.id).toBe(free);
    expect(shortIdOf(b.id)).not.toBe(shortIdOf(a.id));

    const deleted = await catalog.app.inject({
      method: 'DELETE',
      url: `/api/products/${a.id}`,
      headers: seller.auth,
    });
    expect(deleted.statusCode).toBeLessThan(300);
    nextIds.length = 0;
    nextIds.push(clash);
    const c = await makeProduct(catalog, seller);
    expect(c.id).not.toBe(clash);
  });
});

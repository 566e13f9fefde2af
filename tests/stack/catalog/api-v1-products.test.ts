import { productSchema, type Product } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogHarness, productBody, type CatalogHarness, type Seller } from './support.js';

// Catalog's /api/v1/products behind the gateway's door (which forwards the key's token), with the
// real delivery answering "is this file yours?" for the key.
let catalog: CatalogHarness;

beforeAll(async () => {
  catalog = await createCatalogHarness();
}, 60_000);
afterAll(async () => {
  await catalog?.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (as: Seller, method: Method, url: string, payload?: object) =>
  catalog.app.inject({ method, url, headers: as.auth, ...(payload ? { payload } : {}) });

async function writerOf(seller?: Seller) {
  const owner = seller ?? (await catalog.seller({ plan: 'business' }));
  return { owner, key: await catalog.apiKey(owner, ['products:read', 'products:write']) };
}

async function createThroughKey(key: Seller, owner: Seller, overrides = {}): Promise<Product> {
  const fileId = await catalog.upload(owner);
  const response = await call(key, 'POST', '/api/v1/products', productBody(fileId, overrides));
  expect(response.statusCode, response.body).toBe(201);
  return productSchema.parse(response.json());
}

function expectOneErrorShape(response: { statusCode: number; json(): unknown }, status: number) {
  expect(response.statusCode).toBe(status);
  const body = response.json() as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  return body.error;
}

describe('POST /api/v1/products', () => {
  it("creates a draft from the seller's file, as the dashboard does, with its event", async () => {
    const { owner, key } = await writerOf();
    const product = await createThroughKey(key, owner, { title: 'Presets' });
    expect(product).toMatchObject({ ownerId: owner.id, title: 'Presets', status: 'draft' });
    expect(await catalog.outbox('product.created', product.id)).toHaveLength(1);
    const read = await call(key, 'GET', `/api/v1/products/${product.id}`);
    expect(read.json()).toMatchObject({ id: product.id, title: 'Presets' });
  });

  it("refuses another seller's file as not found, and creates nothing", async () => {
    const { key } = await writerOf();
    const other = await catalog.seller();
    const theirs = await catalog.upload(other);
    const refused = await call(key, 'POST', '/api/v1/products', productBody(theirs));
    expect(expectOneErrorShape(refused, 400).code).toBe('file_not_found');
    expect((await call(key, 'GET', '/api/v1/products')).json().data).toEqual([]);
  });

  it('validates as the dashboard does, and refuses unknown fields: 400 in the one shape', async () => {
    const { owner, key } = await writerOf();
    const fileId = await catalog.upload(owner);
    const cases: [Record<string, unknown>, string | null][] = [
      [productBody(fileId, { title: ' ' }), 'missing_fields'],
      [productBody(fileId, { price: 'free' }), null],
      [productBody(fileId, { currency: 'XXX' }), null],
      [productBody('', {}), 'file_required'],
      [productBody(fileId, { status: 'published' }), null],
      [productBody(fileId, { previewBlurPercentage: 101 }), null],
    ];
    for (const [body, code] of cases) {
      const error = expectOneErrorShape(await call(key, 'POST', '/api/v1/products', body), 400);
      if (code) expect(error.code, JSON.stringify(body)).toBe(code);
    }
    expect((await call(key, 'GET', '/api/v1/products')).json().data).toEqual([]);
  });

  it('needs products:write and a key; a key opens no dashboard route', async () => {
    const owner = await catalog.seller({ plan: 'business' });
    const fileId = await catalog.upload(owner);
    const reader = await catalog.apiKey(owner, ['products:read', 'sales:read']);
    const forbidden = await call(reader, 'POST', '/api/v1/products', productBody(fileId));
    expect(expectOneErrorShape(forbidden, 403).code).toBe('insufficient_scope');
    const session = await call(owner, 'POST', '/api/v1/products', productBody(fileId));
    expect(expectOneErrorShape(session, 401).code).toBe('api_key_required');
    const { key } = await writerOf(owner);
    expect((await call(key, 'POST', '/api/products', productBody(fileId))).statusCode).toBe(401);
    expect((await call(key, 'GET', '/api/v1/products')).json().data).toEqual([]);
  });
});

describe('PATCH /api/v1/products/:id', () => {
  it('changes only what is sent, adds an uploaded file and emits the update', async () => {
    const { owner, key } = await writerOf();
    const product = await createThroughKey(key, owner);
    const second = await catalog.upload(owner, { fileName: 'bonus.txt' });
    const response = await call(key, 'PATCH', `/api/v1/products/${product.id}`, {
      price: '25.00',
      files: [{ fileId: product.fileId }, { fileId: second }],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      title: product.title,
      priceMinor: 2500,
      files: [{ fileId: product.fileId }, { fileId: second, fileName: 'bonus.txt' }],
    });
    expect(await catalog.outbox('product.updated', product.id)).toHaveLength(1);
  });

  it("answers 404 for another seller's product, draft or published, and changes nothing", async () => {
    const a = await writerOf();
    const b = await writerOf();
    const draft = await createThroughKey(b.key, b.owner);
    const published = await createThroughKey(b.key, b.owner);
    expect((await call(b.key, 'POST', `/api/v1/products/${published.id}/publish`)).statusCode).toBe(
      200,
    );
    for (const product of [draft, published]) {
      const refused = await call(a.key, 'PATCH', `/api/v1/products/${product.id}`, {
        title: 'Mine now',
      });
      expect(expectOneErrorShape(refused, 404).code).toBe('product_not_found');
      const unchanged = await call(b.key, 'GET', `/api/v1/products/${product.id}`);
      expect(unchanged.json().title).toBe(product.title);
    }
    // Nor can a key put another seller's file into its own product.
    const mine = await createThroughKey(a.key, a.owner);
    const theirFile = await catalog.upload(b.owner);
    const stolen = await call(a.key, 'PATCH', `/api/v1/products/${mine.id}`, {
      files: [{ fileId: theirFile }],
    });
    expect(expectOneErrorShape(stolen, 400).code).toBe('file_not_found');
  });

  it('refuses invalid changes with 400 and a key without products:write with 403', async () => {
    const { owner, key } = await writerOf();
    const product = await createThroughKey(key, owner);
    for (const body of [{ price: null }, { title: '' }, { files: [] }, { owner: 'me' }]) {
      const refused = await call(key, 'PATCH', `/api/v1/products/${product.id}`, body);
      expectOneErrorShape(refused, 400);
    }
    const reader = await catalog.apiKey(owner, ['products:read']);
    const forbidden = await call(reader, 'PATCH', `/api/v1/products/${product.id}`, {
      title: 'x',
    });
    expect(expectOneErrorShape(forbidden, 403).code).toBe('insufficient_scope');
    expect((await call(key, 'GET', `/api/v1/products/${product.id}`)).json().title).toBe(
      product.title,
    );
  });
});

describe('GET /api/v1/products pages in SQL', () => {
  it('pages newest first with starting_after, without deleted products or other sellers', async () => {
    const { owner, key } = await writerOf();
    const made: Product[] = [];
    for (let i = 0; i < 4; i += 1)
      made.push(await createThroughKey(key, owner, { title: `P${i}` }));
    const deleted = made[1]!;
    expect(
      (
        await catalog.app.inject({
          method: 'DELETE',
          url: `/api/products/${deleted.id}`,
          headers: owner.auth,
        })
      ).statusCode,
    ).toBe(204);
    const other = await writerOf();
    await createThroughKey(other.key, other.owner);

    const first = (await call(key, 'GET', '/api/v1/products?limit=2')).json();
    expect(first.has_more).toBe(true);
    expect(first.data.map((p: Product) => p.title)).toEqual(['P3', 'P2']);
    const second = (
      await call(key, 'GET', `/api/v1/products?limit=2&starting_after=${first.data[1].id}`)
    ).json();
    expect(second).toMatchObject({ object: 'list', has_more: false });
    expect(second.data.map((p: Product) => p.title)).toEqual(['P0']);
    // A deleted product of theirs still continues a page it ended.
    const afterDeleted = (
      await call(key, 'GET', `/api/v1/products?starting_after=${deleted.id}`)
    ).json();
    expect(afterDeleted.data.map((p: Product) => p.title)).toEqual(['P0']);

    const foreign = (await call(other.key, 'GET', '/api/v1/products')).json().data[0].id;
    for (const cursor of [foreign, 'nope', '00000000-0000-4000-8000-000000000000']) {
      const refused = await call(key, 'GET', `/api/v1/products?starting_after=${cursor}`);
      expect(expectOneErrorShape(refused, 400).code).toBe('invalid_cursor');
    }
    expectOneErrorShape(await call(key, 'GET', '/api/v1/products?limit=101'), 400);
  });
});

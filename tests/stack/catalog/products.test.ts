import type { DomainEvent } from '@lockdrop/contracts';
import { loadConfig } from '@lockdrop/config';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@lockdrop/catalog/src/app.js';
import { configSchema } from '@lockdrop/catalog/src/config.js';
import {
  createCatalogHarness,
  makeProduct,
  productBody,
  waitUntil,
  type CatalogHarness,
} from './support.js';

let harness: CatalogHarness;

beforeAll(async () => {
  harness = await createCatalogHarness();
});
afterAll(() => harness?.close());

const inject = (options: InjectOptions) => harness.app.inject(options);

describe('a product from creation to unpublishing', () => {
  it('is created as a draft, listed for its owner, published, read publicly and unpublished — each with its event', async () => {
    const seller = await harness.seller();
    const bus = await harness.connectBus();
    const seen: DomainEvent[] = [];
    await bus.subscribe({
      consumer: 'test.catalog-lifecycle',
      filter: 'product.*',
      pool: harness.pool,
      handler: async (event) => {
        seen.push(event);
      },
    });

    const content = Buffer.from('forty minutes of Lagos at dawn');
    const fileId = await harness.upload(seller, { fileName: 'lagos-dawn.txt', content });
    const created = await inject({
      method: 'POST',
      url: '/api/products',
      headers: seller.auth,
      payload: productBody(fileId),
    });
    expect(created.statusCode).toBe(201);
    const product = created.json();
    expect(product).toMatchObject({
      ownerId: seller.id,
      title: 'Field recordings, vol. 2',
      description: 'Forty minutes of Lagos at dawn.',
      priceMinor: 1999,
      price: '19.99',
      priceFormatted: '$19.99',
      currency: 'USD',
      pricing: { type: 'one_time' },
      status: 'draft',
      fileId,
      fileName: 'lagos-dawn.txt',
      fileSizeBytes: content.length,
      fileKind: 'document',
      previewEnabled: true,
      previewBlurPercentage: 60,
      publishedAt: null,
    });
    const newer = await makeProduct(harness, seller, { title: 'Newer one' });

    const mine = await inject({ url: '/api/products/mine', headers: seller.auth });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().products.map((p: { id: string }) => p.id)).toEqual([newer.id, product.id]);

    expect((await inject({ url: `/api/products/${product.id}` })).statusCode).toBe(404);

    const published = await inject({
      method: 'POST',
      url: `/api/products/${product.id}/status`,
      headers: seller.auth,
      payload: { status: 'published' },
    });
    expect(published.statusCode).toBe(200);
    expect(published.json().status).toBe('published');
    expect(published.json().publishedAt).not.toBeNull();

    const publicRead = await inject({ url: `/api/products/${product.id}` });
    expect(publicRead.statusCode).toBe(200);
    expect(publicRead.json()).toMatchObject({
      id: product.id,
      status: 'published',
      viewerIsOwner: false,
      display: {
        amountMinor: 1999,
        currency: 'USD',
        amount: '19.99',
        formatted: '$19.99',
        converted: false,
        warning: null,
      },
    });
    const ownerRead = await inject({ url: `/api/products/${product.id}`, headers: seller.auth });
    expect(ownerRead.json().viewerIsOwner).toBe(true);

    const unpublished = await inject({
      method: 'POST',
      url: `/api/products/${product.id}/status`,
      headers: seller.auth,
      payload: { status: 'draft' },
    });
    expect(unpublished.json()).toMatchObject({ status: 'draft', publishedAt: null });
    expect((await inject({ url: `/api/products/${product.id}` })).statusCode).toBe(404);

    const snapshot = {
      productId: product.id,
      ownerId: seller.id,
      title: 'Field recordings, vol. 2',
      description: 'Forty minutes of Lagos at dawn.',
      priceMinor: 1999,
      currency: 'USD',
      pricing: { type: 'one_time' },
      minimumPriceMinor: null,
      fileId,
      fileName: 'lagos-dawn.txt',
      fileSizeBytes: content.length,
      files: [{ fileId, fileName: 'lagos-dawn.txt', fileSizeBytes: content.length }],
      previewEnabled: true,
      previewBlurPercentage: 60,
      stampPdfs: false,
    };
    const types = ['product.created', 'product.published', 'product.unpublished'] as const;
    const statuses = ['draft', 'published', 'draft'];
    for (const [index, type] of types.entries()) {
      const events = await harness.outbox(type, product.id);
      expect(events).toHaveLength(1);
      expect(events[0]!.data).toEqual({ ...snapshot, status: statuses[index] });
    }
    // Through the relay onto JetStream, in commit order.
    const onStream = await waitUntil(
      async () =>
        seen.filter(
          (event) =>
            (types as readonly string[]).includes(event.type) &&
            'productId' in event.data &&
            event.data.productId === product.id,
        ),
      (events) => events.length === 3,
    );
    expect(onStream.map((event) => event.type)).toEqual([...types]);
  });

  it('treats publishing a published product again as a no-op without a second event', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    for (let i = 0; i < 2; i += 1) {
      const response = await inject({
        method: 'POST',
        url: `/api/products/${product.id}/status`,
        headers: seller.auth,
        payload: { status: 'published' },
      });
      expect(response.json().status).toBe('published');
    }
    expect(await harness.outbox('product.published', product.id)).toHaveLength(1);
  });

  it('stores recurring pricing', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller, {
      pricing: { type: 'recurring', interval: 'yearly' },
    });
    expect(product.pricing).toEqual({ type: 'recurring', interval: 'yearly' });
    const [created] = await harness.outbox('product.created', product.id);
    expect(created!.data.pricing).toEqual({ type: 'recurring', interval: 'yearly' });
  });

  it('applies defaults: USD, no preview, blur 50, one-time', async () => {
    const seller = await harness.seller();
    const response = await inject({
      method: 'POST',
      url: '/api/products',
      headers: seller.auth,
      payload: { title: 'Bare', price: 5, fileId: await harness.upload(seller) },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      currency: 'USD',
      priceMinor: 500,
      description: null,
      previewEnabled: false,
      previewBlurPercentage: 50,
      pricing: { type: 'one_time' },
    });
  });
});

describe('create-product validation (spec §5)', () => {
  const createWith = async (body: Record<string, unknown>, headers?: Record<string, string>) => {
    const seller = await harness.seller();
    return inject({
      method: 'POST',
      url: '/api/products',
      headers: headers ?? seller.auth,
      payload: body,
    });
  };

  it.each([
    ['no title', { title: undefined }],
    ['a blank title', { title: '   ' }],
    ['no price', { price: undefined }],
    ['an empty price', { price: '' }],
    ['no title, price or file', { title: undefined, price: undefined, fileId: undefined }],
  ])('answers %s with missing_fields', async (_case, overrides) => {
    const response = await createWith(
      productBody('7f1f5f5e-1111-4aaa-8bbb-000000000000', overrides),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'missing_fields',
      message: 'Please fill in all required fields',
    });
  });

  it.each([
    ['no file', undefined],
    ['an empty file id', ''],
    ['a null file id', null],
  ])('answers %s with file_required', async (_case, fileId) => {
    const response = await createWith(productBody('x', { fileId }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'file_required',
      message: 'Please upload a file for your product',
    });
  });

  it.each([['0'], ['0.001'], ['-5'], ['abc'], ['1e3'], [0], [-1]])(
    'refuses price %j with invalid_price',
    async (price) => {
      const seller = await harness.seller();
      const response = await inject({
        method: 'POST',
        url: '/api/products',
        headers: seller.auth,
        payload: productBody(await harness.upload(seller), { price }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_price');
    },
  );

  it('stores a price typed with a decimal comma as that price, not 100 times it', async () => {
    const seller = await harness.seller();
    const response = await inject({
      method: 'POST',
      url: '/api/products',
      headers: seller.auth,
      payload: productBody(await harness.upload(seller), { price: '1,50', currency: 'EUR' }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ priceMinor: 150, price: '1.50' });
  });

  it('refuses "1,500", which one seller means as 1500 and another as 1.5', async () => {
    const seller = await harness.seller();
    const response = await inject({
      method: 'POST',
      url: '/api/products',
      headers: seller.auth,
      payload: productBody(await harness.upload(seller), { price: '1,500', currency: 'NGN' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('ambiguous_price');
    expect(response.json().error.message).toMatch(/write it without a thousands separator/);
  });

  it('refuses a currency outside the supported list', async () => {
    const seller = await harness.seller();
    const response = await inject({
      method: 'POST',
      url: '/api/products',
      headers: seller.auth,
      payload: productBody(await harness.upload(seller), { currency: 'BTC' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'unsupported_currency',
      message: 'BTC is not a supported currency',
    });
  });

  it.each([[33], [-5], [105], [50.5]])('refuses blur %j (0–100, step 5)', async (blur) => {
    const seller = await harness.seller();
    const response = await inject({
      method: 'POST',
      url: '/api/products',
      headers: seller.auth,
      payload: productBody(await harness.upload(seller), { previewBlurPercentage: blur }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation_failed');
  });

  it("refuses someone else's upload and an unknown one with file_not_found", async () => {
    const owner = await harness.seller();
    const other = await harness.seller();
    for (const fileId of [
      await harness.upload(owner),
      '6b0e1c52-0c1d-4f0e-9a51-3f3c9d1f0a11',
      'not-a-uuid',
    ]) {
      const response = await inject({
        method: 'POST',
        url: '/api/products',
        headers: other.auth,
        payload: productBody(fileId),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('file_not_found');
    }
  });

  it('says so when delivery cannot be asked, and creates nothing', async () => {
    const seller = await harness.seller();
    const cut = await buildApp(
      loadConfig(configSchema, { ...harness.env, DELIVERY_URL: 'http://127.0.0.1:9' }),
    );
    try {
      const response = await cut.inject({
        method: 'POST',
        url: '/api/products',
        headers: seller.auth,
        payload: productBody(await harness.upload(seller)),
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('delivery_unavailable');
    } finally {
      await cut.close();
    }
    expect(
      (await inject({ url: '/api/products/mine', headers: seller.auth })).json().products,
    ).toEqual([]);
  });

  it('requires a signed-in seller', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/products',
      payload: productBody('x'),
    });
    expect(response.statusCode).toBe(401);
  });

  it('accepts the access cookie as well as the Bearer header, and forwards it to delivery', async () => {
    const seller = await harness.seller();
    const response = await inject({
      method: 'POST',
      url: '/api/products',
      headers: { cookie: `ld_access=${seller.token}` },
      payload: productBody(await harness.upload(seller)),
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('prices in minor units at the currency exponent', () => {
  it.each([
    ['19.999', 'USD', 2000, '20.00'],
    ['19.994', 'USD', 1999, '19.99'],
    [10.005, 'USD', 1001, '10.01'],
    ['0.01', 'USD', 1, '0.01'],
    ['1,250.50', 'NGN', 125050, '1250.50'],
    ['1500.5', 'UGX', 1501, '1501'],
    ['25000', 'XOF', 25000, '25000'],
  ])('%j %s → %i minor units', async (price, currency, minor, decimal) => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller, { price, currency });
    expect(product.priceMinor).toBe(minor);
    expect(product.price).toBe(decimal);
  });

  it('uses exponent 0 for JPY once the platform supports it', async () => {
    await harness.pool.query(
      `UPDATE platform_settings SET setting_value = setting_value || '["JPY"]'::jsonb WHERE setting_key = 'supported_currencies'`,
    );
    try {
      const seller = await harness.seller();
      const product = await makeProduct(harness, seller, { price: '1234.5', currency: 'JPY' });
      expect(product).toMatchObject({ priceMinor: 1235, price: '1235', currency: 'JPY' });
      expect(product.priceFormatted).toContain('1,235');
    } finally {
      await harness.pool.query(
        `UPDATE platform_settings SET setting_value = setting_value - 'JPY' WHERE setting_key = 'supported_currencies'`,
      );
    }
  });
});

describe('editing a product', () => {
  it('changes what the owner sends and emits product.updated with the new snapshot', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    const newFile = await harness.upload(seller, {
      fileName: 'vol-2-remastered.txt',
      content: Buffer.alloc(99, 'a'),
    });
    const response = await inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
      payload: {
        title: 'Remastered',
        description: '',
        price: '25',
        pricing: { type: 'recurring', interval: 'monthly' },
        previewEnabled: false,
        previewBlurPercentage: 80,
        fileId: newFile,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      title: 'Remastered',
      description: null,
      priceMinor: 2500,
      pricing: { type: 'recurring', interval: 'monthly' },
      previewEnabled: false,
      previewBlurPercentage: 80,
      fileId: newFile,
      fileName: 'vol-2-remastered.txt',
      fileSizeBytes: 99,
      fileKind: 'document',
    });
    const [updated] = await harness.outbox('product.updated', product.id);
    expect(updated!.data).toMatchObject({
      title: 'Remastered',
      priceMinor: 2500,
      fileId: newFile,
      previewBlurPercentage: 80,
    });
  });

  it('keeps the typed amount when only the currency changes (19.99 USD → 19.99 EUR, → 20 UGX)', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    const patch = (currency: string) =>
      inject({
        method: 'PATCH',
        url: `/api/products/${product.id}`,
        headers: seller.auth,
        payload: { currency },
      });
    expect((await patch('EUR')).json()).toMatchObject({ currency: 'EUR', priceMinor: 1999 });
    expect((await patch('UGX')).json()).toMatchObject({ currency: 'UGX', priceMinor: 20 });
  });

  it('emits nothing when nothing changes', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    const response = await inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
      payload: { title: product.title, price: product.price },
    });
    expect(response.statusCode).toBe(200);
    expect(await harness.outbox('product.updated', product.id)).toHaveLength(0);
  });

  it('refuses to blank a required field or swap in a foreign file', async () => {
    const seller = await harness.seller();
    const other = await harness.seller();
    const product = await makeProduct(harness, seller);
    const patch = (payload: Record<string, unknown>) =>
      inject({
        method: 'PATCH',
        url: `/api/products/${product.id}`,
        headers: seller.auth,
        payload,
      });
    expect((await patch({ title: '' })).json().error.code).toBe('missing_fields');
    expect((await patch({ price: null })).json().error.code).toBe('missing_fields');
    expect((await patch({ fileId: null })).json().error.code).toBe('file_required');
    expect((await patch({ fileId: await harness.upload(other) })).json().error.code).toBe(
      'file_not_found',
    );
    expect((await patch({ currency: 'XYZ' })).json().error.code).toBe('unsupported_currency');
  });
});

describe('deleting a product', () => {
  it('removes it from every read and emits product.deleted', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    const deleted = await inject({
      method: 'DELETE',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await inject({ url: `/api/products/${product.id}`, headers: seller.auth })).statusCode,
    ).toBe(404);
    expect(
      (await inject({ url: '/api/products/mine', headers: seller.auth })).json().products,
    ).toEqual([]);
    expect(
      (await inject({ method: 'DELETE', url: `/api/products/${product.id}`, headers: seller.auth }))
        .statusCode,
    ).toBe(404);
    const events = await harness.outbox('product.deleted', product.id);
    expect(events.map((event) => event.data)).toEqual([
      { productId: product.id, ownerId: seller.id },
    ]);
  });
});

describe('public reads from memory (two catalog processes, as two replicas)', () => {
  it('an edit, an unpublish or a deletion made through one replica shows on the other within a second', async () => {
    const replica = await buildApp(loadConfig(configSchema, harness.env));
    try {
      const seller = await harness.seller();
      const created = (
        await inject({
          method: 'POST',
          url: '/api/products',
          headers: seller.auth,
          payload: productBody(await harness.upload(seller), { title: 'Before' }),
        })
      ).json();
      await inject({
        method: 'POST',
        url: `/api/products/${created.id}/status`,
        headers: seller.auth,
        payload: { status: 'published' },
      });
      const publicRead = () =>
        replica.inject({ url: `/api/products/${created.id}?countView=false` });
      // The replica has it in memory now.
      await waitUntil(publicRead, (response) => response.statusCode === 200);
      expect((await publicRead()).json().title).toBe('Before');

      const edited = await inject({
        method: 'PATCH',
        url: `/api/products/${created.id}`,
        headers: seller.auth,
        payload: { title: 'After' },
      });
      expect(edited.statusCode).toBe(200);
      const within = async (check: () => Promise<boolean>) => {
        const started = Date.now();
        await waitUntil(check, Boolean, 1_000);
        return Date.now() - started;
      };
      expect(await within(async () => (await publicRead()).json().title === 'After')).toBeLessThan(
        1_000,
      );

      await inject({
        method: 'POST',
        url: `/api/products/${created.id}/status`,
        headers: seller.auth,
        payload: { status: 'draft' },
      });
      expect(await within(async () => (await publicRead()).statusCode === 404)).toBeLessThan(1_000);

      await inject({
        method: 'POST',
        url: `/api/products/${created.id}/status`,
        headers: seller.auth,
        payload: { status: 'published' },
      });
      await within(async () => (await publicRead()).statusCode === 200);
      await inject({ method: 'DELETE', url: `/api/products/${created.id}`, headers: seller.auth });
      expect(await within(async () => (await publicRead()).statusCode === 404)).toBeLessThan(1_000);
    } finally {
      await replica.close();
    }
  });
});

describe('pay what you want', () => {
  it('keeps a minimum (zero allowed) beside the suggested price, says what is wrong in words, and carries it in events', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller, { price: '10', minimumPrice: '2.5' });
    expect(product).toMatchObject({
      price: '10.00',
      payWhatYouWant: { minimumMinor: 250, minimum: '2.50', minimumFormatted: '$2.50' },
    });
    const created = await harness.outbox('product.created', product.id);
    expect(created[0]!.data).toMatchObject({ priceMinor: 1000, minimumPriceMinor: 250 });

    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [
        { price: '10', minimumPrice: '-1' },
        'invalid_minimum_price',
        'Minimum price must be a number of at least 0',
      ],
      [
        { price: '10', minimumPrice: 'cheap' },
        'invalid_minimum_price',
        'Minimum price must be a number of at least 0',
      ],
      [
        { price: '10', minimumPrice: '11' },
        'minimum_above_price',
        'The minimum price cannot be more than the suggested price',
      ],
      [
        { minimumPrice: '1', pricing: { type: 'recurring', interval: 'monthly' } },
        'pay_what_you_want_one_time',
        'Pay what you want is only for one-time prices',
      ],
    ];
    for (const [overrides, code, message] of refusals) {
      const response = await inject({
        method: 'POST',
        url: '/api/products',
        headers: seller.auth,
        payload: productBody(await harness.upload(seller), overrides),
      });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error, JSON.stringify(overrides)).toEqual({ code, message });
    }

    const free = await inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
      payload: { minimumPrice: '0' },
    });
    expect(free.json().payWhatYouWant).toMatchObject({
      minimumMinor: 0,
      minimumFormatted: '$0.00',
    });
    // Lowering the suggestion below the minimum is refused, like a minimum above it.
    const below = await inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
      payload: { minimumPrice: '3', price: '2' },
    });
    expect(below.json().error.code).toBe('minimum_above_price');

    await inject({
      method: 'POST',
      url: `/api/products/${product.id}/status`,
      headers: seller.auth,
      payload: { status: 'published' },
    });
    const publicRead = (await inject({ url: `/api/products/${product.id}` })).json();
    expect(publicRead.displayMinimum).toMatchObject({ amountMinor: 0, currency: 'USD' });

    const fixed = await inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
      payload: { minimumPrice: null },
    });
    expect(fixed.json().payWhatYouWant).toBeNull();
    const updates = await harness.outbox('product.updated', product.id);
    expect(updates.at(-1)!.data).toMatchObject({ minimumPriceMinor: null });
    expect((await inject({ url: `/api/products/${product.id}` })).json().displayMinimum).toBeNull();
  });
});

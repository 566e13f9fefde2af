import http from 'node:http';
import { randomUUID } from 'node:crypto';
import {
  MAX_FILES_PER_PRODUCT,
  productSchema,
  v1UploadedFileSchema,
  type ApiKeyScope,
  type Product,
} from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogHarness, productBody, type CatalogHarness, type Seller } from './support.js';

/**
 * POST /api/v1/files with `productId` (issue 27): the real delivery streams the upload and asks
 * the real catalog, over the bus, whether the product is the key's seller's before it reads the
 * file, then has catalog append the stored file to the product under its row lock.
 */
let catalog: CatalogHarness;

beforeAll(async () => {
  catalog = await createCatalogHarness();
}, 60_000);
afterAll(async () => {
  await catalog?.close();
});

const WRITER: ApiKeyScope[] = ['products:read', 'products:write', 'files:write'];

interface Upload {
  productId?: string;
  fileName?: string;
  content?: Buffer;
  /** Sends `productId` after the file part instead of before it. */
  productIdLast?: boolean;
}

/** A script's upload: the parts in the order given (FormData keeps it). */
async function apiUpload(key: Seller, upload: Upload = {}) {
  const form = new FormData();
  const file = new Blob([new Uint8Array(upload.content ?? Buffer.from(`bytes ${randomUUID()}`))]);
  if (upload.productId && !upload.productIdLast) form.append('productId', upload.productId);
  form.append('file', file, upload.fileName ?? 'bonus-track.txt');
  if (upload.productId && upload.productIdLast) form.append('productId', upload.productId);
  const response = await fetch(new URL('/api/v1/files', catalog.deliveryUrl), {
    method: 'POST',
    headers: key.auth,
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const readProduct = async (key: Seller, id: string): Promise<Product> =>
  productSchema.parse(
    (await catalog.app.inject({ url: `/api/v1/products/${id}`, headers: key.auth })).json(),
  );

async function productOf(owner: Seller, key: Seller): Promise<Product> {
  const fileId = await catalog.upload(owner, { fileName: 'album.txt' });
  const response = await catalog.app.inject({
    method: 'POST',
    url: '/api/v1/products',
    headers: key.auth,
    payload: productBody(fileId),
  });
  expect(response.statusCode, response.body).toBe(201);
  return productSchema.parse(response.json());
}

/** This month's uploads of `seller` as delivery counts them (every stored upload counts). */
async function uploadsUsed(seller: Seller): Promise<number> {
  const response = await fetch(new URL('/api/uploads/usage', catalog.deliveryUrl), {
    headers: seller.auth,
  });
  return ((await response.json()) as { used: number }).used;
}

function expectError(
  result: { status: number; body: Record<string, unknown> },
  status: number,
  code: string,
) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(Object.keys(result.body)).toEqual(['error']);
  expect(result.body.error).toMatchObject({ code, message: expect.any(String) });
  return result.body.error as { code: string; message: string; details?: { fileId?: string } };
}

/**
 * `totalBytes` of file after a `productId` part, over a real socket, stopping once the server
 * answers: how many bytes it took before the answer shows whether the file was read first.
 */
function streamedUpload(key: Seller, productId: string, totalBytes: number) {
  const boundary = `----lockdrop${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="productId"\r\n\r\n${productId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1 << 20, 7);
  return new Promise<{ status: number; body: string; sentBytes: number }>((resolve, reject) => {
    const request = http.request(new URL('/api/v1/files', catalog.deliveryUrl), {
      method: 'POST',
      headers: { ...key.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    let sent = 0;
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      let body = '';
      response.on('data', (data: Buffer) => (body += data.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body, sentBytes: sent }));
    });
    request.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < totalBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      if (!answered) request.end(tail);
    };
    request.write(head);
    pump();
  });
}

describe('POST /api/v1/files with productId', () => {
  it("appends the upload to the key's seller's product, with the events a file addition emits", async () => {
    const owner = await catalog.seller({ plan: 'business' });
    const key = await catalog.apiKey(owner, WRITER);
    const product = await productOf(owner, key);

    const result = await apiUpload(key, { productId: product.id, fileName: 'bonus-track.txt' });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    const file = v1UploadedFileSchema.parse(result.body);
    expect(file).toMatchObject({
      object: 'file',
      fileName: 'bonus-track.txt',
      productId: product.id,
    });

    const after = await readProduct(key, product.id);
    expect(after.files.map((f) => f.fileId)).toEqual([product.fileId, file.id]);
    expect(after.files[1]).toMatchObject({
      fileName: 'bonus-track.txt',
      sizeBytes: file.sizeBytes,
    });
    // The preview source stays the product's first file.
    expect(after.fileId).toBe(product.fileId);
    const added = await catalog.outbox('product.files_added', product.id);
    expect(added.map((event) => event.data.files.map((f) => f.fileId))).toEqual([[file.id]]);
    expect(await catalog.outbox('product.updated', product.id)).toHaveLength(1);

    // Without productId it is a loose upload, as before.
    const loose = v1UploadedFileSchema.parse((await apiUpload(key)).body);
    expect(loose.productId).toBeNull();
    expect((await readProduct(key, product.id)).files).toHaveLength(2);
  });

  it("refuses another seller's product as not found before reading the file: nothing stored, their product unchanged", async () => {
    const a = await catalog.seller({ plan: 'business' });
    const aKey = await catalog.apiKey(a, WRITER);
    const draft = await productOf(a, aKey);
    const published = await productOf(a, aKey);
    const publishing = await catalog.app.inject({
      method: 'POST',
      url: `/api/v1/products/${published.id}/publish`,
      headers: aKey.auth,
    });
    expect(publishing.statusCode).toBe(200);

    const b = await catalog.seller({ plan: 'business' });
    const bKey = await catalog.apiKey(b, WRITER);
    for (const product of [draft, published]) {
      const refused = await apiUpload(bKey, { productId: product.id });
      expect(expectError(refused, 404, 'product_not_found').details).toBeUndefined();
      expect((await readProduct(aKey, product.id)).files).toHaveLength(1);
    }
    // The same answer as for a product that does not exist, or an id that is no id.
    expectError(await apiUpload(bKey, { productId: randomUUID() }), 404, 'product_not_found');
    expectError(await apiUpload(bKey, { productId: 'not-a-product' }), 404, 'product_not_found');
    expect(await uploadsUsed(b)).toBe(0);

    // Checked before the file is read: the answer comes while the body is still arriving.
    const streamed = await streamedUpload(bKey, draft.id, 64 * 1024 * 1024);
    expect(streamed.status).toBe(404);
    expect(streamed.sentBytes).toBeLessThan(64 * 1024 * 1024);
    expect(await uploadsUsed(b)).toBe(0);
    expect(await catalog.outbox('product.files_added', draft.id)).toEqual([]);
  });

  it('keeps every file of uploads to one product that finish together', async () => {
    const owner = await catalog.seller({ plan: 'business' });
    const key = await catalog.apiKey(owner, WRITER);
    const product = await productOf(owner, key);

    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        apiUpload(key, { productId: product.id, fileName: `stem-${i}.txt` }),
      ),
    );
    for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(201);
    const uploaded = results.map((result) => v1UploadedFileSchema.parse(result.body).id);

    const after = await readProduct(key, product.id);
    expect(after.files[0]!.fileId).toBe(product.fileId);
    expect(after.files.map((f) => f.fileId).sort()).toEqual([product.fileId, ...uploaded].sort());
    expect(await catalog.outbox('product.files_added', product.id)).toHaveLength(8);
  });

  it('needs products:write besides files:write to add to a product, refused before anything is stored', async () => {
    const owner = await catalog.seller({ plan: 'business' });
    const writer = await catalog.apiKey(owner, WRITER);
    const product = await productOf(owner, writer);

    const filesOnly = await catalog.apiKey(owner, ['files:write', 'products:read']);
    const refused = expectError(
      await apiUpload(filesOnly, { productId: product.id }),
      403,
      'insufficient_scope',
    );
    expect(refused.message).toContain('products:write');
    const productsOnly = await catalog.apiKey(owner, ['products:write']);
    expectError(
      await apiUpload(productsOnly, { productId: product.id }),
      403,
      'insufficient_scope',
    );
    expectError(await apiUpload(owner, { productId: product.id }), 401, 'api_key_required');

    expect(await uploadsUsed(owner)).toBe(1); // the product's own file
    expect((await readProduct(writer, product.id)).files).toHaveLength(1);
  });

  it('refuses a full product before reading the file, and a productId sent after the file', async () => {
    const owner = await catalog.seller({ plan: 'business' });
    const key = await catalog.apiKey(owner, WRITER);
    const product = await productOf(owner, key);

    const late = await apiUpload(key, { productId: product.id, productIdLast: true });
    const kept = expectError(late, 400, 'product_id_after_file').details?.fileId;
    expect(kept).toEqual(expect.any(String));
    expect((await readProduct(key, product.id)).files.map((f) => f.fileId)).toEqual([
      product.fileId,
    ]);

    const more = [kept!];
    while (more.length < MAX_FILES_PER_PRODUCT - 1) more.push(await catalog.upload(owner));
    const filled = await catalog.app.inject({
      method: 'PATCH',
      url: `/api/v1/products/${product.id}`,
      headers: key.auth,
      payload: { files: [product.fileId, ...more].map((fileId) => ({ fileId })) },
    });
    expect(filled.statusCode, filled.body).toBe(200);
    const used = await uploadsUsed(owner);
    expectError(await apiUpload(key, { productId: product.id }), 409, 'too_many_files');
    expect(await uploadsUsed(owner)).toBe(used);
    expect((await readProduct(key, product.id)).files).toHaveLength(MAX_FILES_PER_PRODUCT);
  });

  it("answers delivery's repeated ask for one file as done, changing nothing (an answer lost to a timeout)", async () => {
    const owner = await catalog.seller({ plan: 'business' });
    const key = await catalog.apiKey(owner, WRITER);
    const product = await productOf(owner, key);
    const loose = v1UploadedFileSchema.parse((await apiUpload(key)).body);
    const bus = await catalog.connectBus();
    const ask = () =>
      bus.request('products.attach_file', {
        sellerId: owner.id,
        productId: product.id,
        file: {
          fileId: loose.id,
          fileName: loose.fileName,
          sizeBytes: loose.sizeBytes,
          kind: loose.kind,
        },
        correlationId: randomUUID(),
      });
    expect(await ask()).toEqual({ ok: true });
    expect(await ask()).toEqual({ ok: true });
    expect((await readProduct(key, product.id)).files.map((f) => f.fileId)).toEqual([
      product.fileId,
      loose.id,
    ]);
    expect(await catalog.outbox('product.files_added', product.id)).toHaveLength(1);

    // A product deleted between the check and the append takes no file.
    const deleted = await catalog.app.inject({
      method: 'DELETE',
      url: `/api/products/${product.id}`,
      headers: owner.auth,
    });
    expect(deleted.statusCode).toBe(204);
    const other = v1UploadedFileSchema.parse((await apiUpload(key)).body);
    const late = await bus.request('products.attach_file', {
      sellerId: owner.id,
      productId: product.id,
      file: { fileId: other.id, fileName: other.fileName, sizeBytes: 1, kind: other.kind },
      correlationId: randomUUID(),
    });
    expect(late).toEqual({ ok: false, reason: 'product_not_found' });
  });
});

import { randomUUID } from 'node:crypto';
import { createEvent } from '@lockdrop/contracts';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { sha256 } from './support/purchases.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elfExecutable, peExecutable, pngImage } from './support/fixtures.js';
import {
  makeProduct,
  multipart,
  startDelivery,
  waitFor,
  type DeliveryHarness,
  type TestUser,
} from './support/harness.js';

let delivery: DeliveryHarness;
let baseUrl: string;

beforeAll(async () => {
  delivery = await startDelivery();
  baseUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => delivery?.close());

async function upload(
  user: TestUser | null,
  fileName: string,
  content: Buffer,
  options?: Parameters<typeof multipart>[2],
) {
  const form = multipart(fileName, content, options);
  return delivery.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { 'content-type': form.contentType, ...(user ? { authorization: user.auth } : {}) },
    payload: form.body,
  });
}

async function fileRows(ownerId: string) {
  const { rows } = await delivery.db.query('SELECT * FROM files WHERE owner_id = $1', [ownerId]);
  return rows;
}

/**
 * Sends a multipart upload of `totalBytes` over a real socket, chunk by chunk with backpressure,
 * and stops sending as soon as the server answers (as a browser does).
 */
function streamUpload(
  user: TestUser,
  fileName: string,
  totalBytes: number,
  { abortAfterBytes }: { abortAfterBytes?: number } = {},
) {
  const form = multipart(fileName, Buffer.alloc(0));
  const chunk = Buffer.alloc(1 << 20, 7);
  return new Promise<
    { status: number; body: string; sentBytes: number } | { aborted: true; sentBytes: number }
  >((resolve, reject) => {
    const request = http.request(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { 'content-type': form.contentType, authorization: user.auth },
    });
    let sent = 0;
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      let body = '';
      response.on('data', (data: Buffer) => (body += data.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body, sentBytes: sent }));
    });
    request.on('error', (error) =>
      answered
        ? undefined
        : abortAfterBytes
          ? resolve({ aborted: true, sentBytes: sent })
          : reject(error),
    );
    const pump = () => {
      while (!answered && sent < totalBytes) {
        if (abortAfterBytes !== undefined && sent >= abortAfterBytes) {
          request.destroy();
          return resolve({ aborted: true, sentBytes: sent });
        }
        const piece = chunk.subarray(0, Math.min(chunk.length, totalBytes - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', pump);
      }
      if (!answered) request.end(form.tail);
    };
    request.write(form.head);
    pump();
  });
}

describe('POST /api/uploads', () => {
  it('stores the file and answers with its record: size, sniffed type, SHA-256, kind', async () => {
    const seller = await delivery.user('free');
    const image = await pngImage();
    const response = await upload(seller, 'Sunset.png', image, { clientType: 'text/plain' });
    expect(response.statusCode).toBe(201);
    const file = response.json();
    expect(file).toEqual({
      id: expect.any(String),
      fileName: 'Sunset.png',
      sizeBytes: image.length,
      contentType: 'image/png',
      sha256: sha256(image),
      kind: 'image',
      createdAt: expect.any(String),
    });
    const [row] = await fileRows(seller.id);
    expect(row.storage_key).toMatch(new RegExp(`^${seller.id}/\\d{13}-[0-9a-f]{16}\\.png$`));
    expect(sha256(await readFile(`${delivery.dataDir}/${row.storage_key}`))).toBe(sha256(image));
    const { rows: events } = await delivery.db.query(
      "SELECT payload FROM outbox WHERE type = 'file.uploaded'",
    );
    expect(events.map((event) => event.payload.data)).toContainEqual({
      fileId: file.id,
      ownerId: seller.id,
      fileName: 'Sunset.png',
      sizeBytes: image.length,
      contentType: 'image/png',
      sha256: sha256(image),
    });
  });

  it.each([
    ['ELF', elfExecutable(), 'application/x-elf'],
    ['PE', peExecutable(), 'application/x-msdownload'],
  ])(
    'types a renamed %s executable by its bytes, not its name',
    async (_label, bytes, contentType) => {
      const seller = await delivery.user('free');
      const response = await upload(seller, 'photo.jpg', bytes, { clientType: 'image/jpeg' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        fileName: 'photo.jpg',
        contentType,
        kind: 'document',
      });
    },
  );

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system32\\evil.dll', 'evil.dll'],
    ['/var/www/../../shell.php', 'shell.php'],
    ['..', 'file'],
    ['.htaccess', 'htaccess'],
    ['in\u0000voice\u202Egnp.exe', 'invoicegnp.exe'],
    ['con.txt', '_con.txt'],
    ['  report  final?.pdf  ', 'report final_.pdf'],
  ])('neutralises the name %j', async (rawName, expected) => {
    const seller = await delivery.user('free');
    const response = await upload(seller, rawName, Buffer.from('plain text'));
    expect(response.statusCode).toBe(201);
    expect(response.json().fileName).toBe(expected);
    const [row] = await fileRows(seller.id);
    expect(row.storage_key.startsWith(`${seller.id}/`)).toBe(true);
    expect(row.storage_key).not.toContain('..');
  });

  it('keeps the extension of a very long name', async () => {
    const seller = await delivery.user('free');
    const response = await upload(seller, `${'é'.repeat(300)}.mp3`, Buffer.from('x'));
    const { fileName } = response.json();
    expect(Buffer.byteLength(fileName)).toBeLessThanOrEqual(200);
    expect(fileName.endsWith('.mp3')).toBe(true);
  });

  it('requires a signed-in user and a file part named "file"', async () => {
    expect((await upload(null, 'a.txt', Buffer.from('x'))).statusCode).toBe(401);
    const seller = await delivery.user('free');
    const wrongField = await upload(seller, 'a.txt', Buffer.from('x'), { field: 'document' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().error.code).toBe('file_required');
    const empty = await upload(seller, 'a.txt', Buffer.alloc(0));
    expect(empty.json().error.code).toBe('file_empty');
    expect(await delivery.storedFiles()).not.toContainEqual(expect.stringContaining(seller.id));
  });

  it('answers a multipart upload with no boundary, or cut short, with 400 and keeps nothing', async () => {
    const seller = await delivery.user('free');
    const noBoundary = await delivery.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'content-type': 'multipart/form-data', authorization: seller.auth },
      payload: 'whatever',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().error.code).toBe('invalid_body');

    const form = multipart('cut.bin', Buffer.alloc(64 * 1024, 7));
    const truncated = await delivery.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'content-type': form.contentType, authorization: seller.auth },
      payload: form.body.subarray(0, form.body.length - 200),
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().error.code).toBe('invalid_body');
    expect(await fileRows(seller.id)).toEqual([]);
    expect(await delivery.storedFiles()).not.toContainEqual(expect.stringContaining(seller.id));
  });

  it('rejects an over-limit upload mid-stream with 413 and keeps nothing', async () => {
    const seller = await delivery.user('free'); // 50 MB
    const before = await delivery.storedFiles();
    const result = await streamUpload(seller, 'huge.bin', 120 * 1024 * 1024);
    expect(result).toMatchObject({ status: 413 });
    if (!('status' in result)) throw new Error('no answer');
    expect(JSON.parse(result.body)).toEqual({
      error: {
        code: 'file_too_large',
        message: 'File size must be less than 50MB',
        details: { maxBytes: 50 * 1024 * 1024, plan: 'free' },
      },
    });
    // The answer came while the body was still being sent, not after all 120 MB.
    expect(result.sentBytes).toBeLessThan(100 * 1024 * 1024);
    expect(await fileRows(seller.id)).toEqual([]);
    expect(await delivery.storedFiles()).toEqual(before);
  });

  it('keeps nothing when the client goes away mid-upload', async () => {
    const seller = await delivery.user('starter');
    const before = await delivery.storedFiles();
    const result = await streamUpload(seller, 'partial.bin', 40 * 1024 * 1024, {
      abortAfterBytes: 8 * 1024 * 1024,
    });
    expect(result).toMatchObject({ aborted: true });
    await waitFor(async () => (await delivery.storedFiles()).length === before.length);
    expect(await delivery.storedFiles()).toEqual(before);
    expect(await fileRows(seller.id)).toEqual([]);
  });

  it('refuses the upload after the monthly quota, naming the plan limit', async () => {
    const seller = await delivery.user('free'); // 15 uploads a month
    for (let i = 0; i < 15; i += 1)
      expect((await upload(seller, `f${i}.txt`, Buffer.from(`n${i}`))).statusCode).toBe(201);
    const refused = await upload(seller, 'one-too-many.txt', Buffer.from('x'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'upload_quota_exceeded',
      message: expect.stringContaining('Free plan allows 15 uploads per month'),
      details: { plan: 'free', limit: 15, used: 15 },
    });
    expect(await fileRows(seller.id)).toHaveLength(15);
    const usage = await delivery.app.inject({
      url: '/api/uploads/usage',
      headers: { authorization: seller.auth },
    });
    expect(usage.json()).toMatchObject({ plan: 'free', used: 15, limit: 15 });
    expect(Date.parse(usage.json().resetsAt)).toBeGreaterThan(Date.now());
    // Deleting a file does not give the upload back.
    const fileId = (await fileRows(seller.id))[0].id;
    const auth = { authorization: seller.auth };
    expect(
      (
        await delivery.app.inject({
          method: 'DELETE',
          url: `/api/uploads/${fileId}`,
          headers: auth,
        })
      ).statusCode,
    ).toBe(204);
    expect((await upload(seller, 'again.txt', Buffer.from('x'))).statusCode).toBe(403);
    // Another seller's quota is their own.
    const other = await delivery.user('business');
    expect((await upload(other, 'mine.txt', Buffer.from('x'))).statusCode).toBe(201);
    const otherUsage = await delivery.app.inject({
      url: '/api/uploads/usage',
      headers: { authorization: other.auth },
    });
    expect(otherUsage.json()).toMatchObject({ plan: 'business', used: 1, limit: null });
  });

  it('a plan paid for applies to the next upload, before the access token is renewed', async () => {
    const seller = await delivery.user('free'); // the token keeps saying free
    for (let i = 0; i < 15; i += 1)
      expect((await upload(seller, `p${i}.txt`, Buffer.from(`p${i}`))).statusCode).toBe(201);
    expect((await upload(seller, 'over.txt', Buffer.from('x'))).statusCode).toBe(403);
    await delivery.publish(
      createEvent(
        'plan.changed',
        { userId: seller.id, plan: 'pro', previousPlan: 'free' },
        { correlationId: 'test' },
      ),
    );
    const usage = () =>
      delivery.app.inject({ url: '/api/uploads/usage', headers: { authorization: seller.auth } });
    await waitFor(async () => (await usage()).json().plan === 'pro');
    expect((await usage()).json()).toMatchObject({ plan: 'pro', used: 15, limit: 150 });
    expect((await upload(seller, 'now-allowed.txt', Buffer.from('x'))).statusCode).toBe(201);
    // An older change arriving late does not undo it.
    await delivery.publish(
      createEvent(
        'plan.changed',
        { userId: seller.id, plan: 'free', previousPlan: 'pro' },
        { correlationId: 'test', occurredAt: new Date(Date.now() - 60_000) },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await usage()).json().plan).toBe('pro');
  });
});

describe('GET and DELETE /api/uploads/:fileId', () => {
  it('shows a file to its owner only; anyone else gets 404', async () => {
    const seller = await delivery.user('free');
    const created = (await upload(seller, 'notes.txt', Buffer.from('hello'))).json();
    const own = await delivery.app.inject({
      url: `/api/uploads/${created.id}`,
      headers: { authorization: seller.auth },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ ...created, previewStatus: null });

    const stranger = await delivery.user('pro');
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await delivery.app.inject({
        method,
        url: `/api/uploads/${created.id}`,
        headers: { authorization: stranger.auth },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('file_not_found');
    }
    const unknown = await delivery.app.inject({
      url: `/api/uploads/${randomUUID()}`,
      headers: { authorization: seller.auth },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('deletes a file and its stored bytes, but not while a product uses it', async () => {
    const seller = await delivery.user('free');
    const used = (await upload(seller, 'used.txt', Buffer.from('in a product'))).json();
    const spare = (await upload(seller, 'spare.txt', Buffer.from('spare'))).json();
    const product = makeProduct({ ownerId: seller.id, fileId: used.id, previewEnabled: false });
    await delivery.publishProduct('product.created', product);
    const auth = { authorization: seller.auth };
    await waitFor(
      async () =>
        (await delivery.app.inject({ url: `/api/uploads/${used.id}`, headers: auth })).json()
          .previewStatus === 'disabled',
    );

    const refused = await delivery.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${used.id}`,
      headers: auth,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('file_in_use');

    const [{ storage_key: key }] = (
      await delivery.db.query('SELECT storage_key FROM files WHERE id = $1', [spare.id])
    ).rows;
    expect(
      (
        await delivery.app.inject({
          method: 'DELETE',
          url: `/api/uploads/${spare.id}`,
          headers: auth,
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await delivery.app.inject({ url: `/api/uploads/${spare.id}`, headers: auth })).statusCode,
    ).toBe(404);
    expect(await delivery.storedFiles()).not.toContain(`${delivery.dataDir}/${key}`);

    await delivery.publishProductDeleted(product.productId, seller.id);
    await waitFor(
      async () =>
        (
          await delivery.app.inject({
            method: 'DELETE',
            url: `/api/uploads/${used.id}`,
            headers: auth,
          })
        ).statusCode === 204,
    );
  });
});

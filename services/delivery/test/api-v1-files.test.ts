import http from 'node:http';
import { v1FileSchema } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from './support/purchases.js';
import {
  multipart,
  startDelivery,
  uploadFile,
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

function upload(key: TestUser, fileName: string, content: Buffer, field = 'file') {
  const form = multipart(fileName, content, { field });
  return delivery.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { 'content-type': form.contentType, authorization: key.auth },
    payload: form.body,
  });
}

const read = (key: TestUser, fileId: string) =>
  delivery.app.inject({ url: `/api/v1/files/${fileId}`, headers: { authorization: key.auth } });

async function fileRows(ownerId: string) {
  const { rows } = await delivery.db.query('SELECT id FROM files WHERE owner_id = $1', [ownerId]);
  return rows as { id: string }[];
}

/** `totalBytes` of multipart body over a real socket, stopping when the server answers. */
function streamUpload(key: TestUser, totalBytes: number) {
  const form = multipart('huge.bin', Buffer.alloc(0));
  const chunk = Buffer.alloc(1 << 20, 7);
  return new Promise<{ status: number; body: string; sentBytes: number }>((resolve, reject) => {
    const request = http.request(`${baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { 'content-type': form.contentType, authorization: key.auth },
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
      if (!answered) request.end(form.tail);
    };
    request.write(form.head);
    pump();
  });
}

describe('POST /api/v1/files', () => {
  it("stores the key's seller's file as the dashboard upload does, and reads it back", async () => {
    const seller = await delivery.user('business');
    const key = await delivery.apiKey(seller, ['files:write']);
    const bytes = Buffer.from('Twelve presets, one guide.');
    const response = await upload(key, 'guide.txt', bytes);
    expect(response.statusCode, response.body).toBe(201);
    const file = v1FileSchema.parse(response.json());
    expect(file).toMatchObject({ object: 'file', fileName: 'guide.txt', sizeBytes: bytes.length });
    expect(file.sha256).toBe(sha256(bytes));
    expect(await fileRows(seller.id)).toEqual([{ id: file.id }]);

    const again = await read(key, file.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(file);
    // Catalog reads it with the key's own token when the key makes a product of it.
    const productKey = await delivery.apiKey(seller, ['products:write']);
    expect((await read(productKey, file.id)).json()).toEqual(file);
  });

  it("answers 404 for another seller's file, whichever scope the key holds", async () => {
    const owner = await delivery.user('business');
    const theirs = await uploadFile(delivery, owner, 'theirs.txt', Buffer.from('not yours'));
    const intruder = await delivery.user('business');
    for (const scopes of [
      ['files:write'],
      ['products:write'],
      ['files:write', 'products:write'],
    ] as const) {
      const key = await delivery.apiKey(intruder, [...scopes]);
      const response = await read(key, theirs.id);
      expect(response.statusCode, scopes.join()).toBe(404);
      expect(Object.keys(response.json())).toEqual(['error']);
      expect(response.json().error.code).toBe('file_not_found');
    }
    // The owner's own key sees it.
    const ownerKey = await delivery.apiKey(owner, ['files:write']);
    expect((await read(ownerKey, theirs.id)).statusCode).toBe(200);
  });

  it('needs files:write to upload and a key rather than a session; a key opens no dashboard upload', async () => {
    const seller = await delivery.user('business');
    const readOnly = await delivery.apiKey(seller, ['products:read', 'sales:read']);
    const refused = await upload(readOnly, 'x.txt', Buffer.from('x'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'insufficient_scope' });
    const session = await upload(seller, 'x.txt', Buffer.from('x'));
    expect(session.statusCode).toBe(401);
    expect(session.json().error.code).toBe('api_key_required');
    expect(await fileRows(seller.id)).toEqual([]);

    const key = await delivery.apiKey(seller, ['files:write']);
    const form = multipart('x.txt', Buffer.from('x'));
    const dashboard = await delivery.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'content-type': form.contentType, authorization: key.auth },
      payload: form.body,
    });
    expect(dashboard.statusCode).toBe(401);
    expect(await fileRows(seller.id)).toEqual([]);
  });

  it('counts against the same monthly quota as the dashboard', async () => {
    const seller = await delivery.user('free'); // 15 uploads a month
    const key = await delivery.apiKey(seller, ['files:write']);
    for (let i = 0; i < 14; i += 1)
      await uploadFile(delivery, seller, `f${i}.txt`, Buffer.from(`dashboard ${i}`));
    expect((await upload(key, 'fifteenth.txt', Buffer.from('api'))).statusCode).toBe(201);
    const refused = await upload(key, 'one-too-many.txt', Buffer.from('x'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'upload_quota_exceeded',
      details: { plan: 'free', limit: 15, used: 15 },
    });
    expect(await fileRows(seller.id)).toHaveLength(15);
  });

  it("refuses a file over the plan's limit mid-stream with 413, keeping nothing", async () => {
    const seller = await delivery.user('free'); // 50 MB
    const key = await delivery.apiKey(seller, ['files:write']);
    const before = await delivery.storedFiles();
    const result = await streamUpload(key, 120 * 1024 * 1024);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body).error).toMatchObject({ code: 'file_too_large' });
    // Answered while the body was still arriving: the body is streamed, never buffered first.
    expect(result.sentBytes).toBeLessThan(100 * 1024 * 1024);
    expect(await fileRows(seller.id)).toEqual([]);
    expect(await delivery.storedFiles()).toEqual(before);
  });

  it('refuses bodies that are not one `file` part and ids that are not ids, with 400', async () => {
    const seller = await delivery.user('business');
    const key = await delivery.apiKey(seller, ['files:write']);
    const json = await delivery.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { authorization: key.auth, 'content-type': 'application/json' },
      payload: { file: 'aGVsbG8=' },
    });
    expect(json.statusCode).toBe(400);
    const wrongField = await upload(key, 'x.txt', Buffer.from('x'), 'document');
    const badId = await read(key, 'not-a-uuid');
    for (const response of [json, wrongField, badId]) {
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(['error']);
      expect(response.json().error).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
      });
    }
    expect(wrongField.json().error.code).toBe('file_required');
    expect(await fileRows(seller.id)).toEqual([]);
  });
});

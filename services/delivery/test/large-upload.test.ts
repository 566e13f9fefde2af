import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { multipart, startDelivery, type DeliveryHarness } from './support/harness.js';

// Its own file, so its own process: the RSS measured here belongs to this upload alone.
let delivery: DeliveryHarness;
let baseUrl: string;

beforeAll(async () => {
  delivery = await startDelivery();
  baseUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => delivery?.close());

const MB = 1024 * 1024;

it('streams a 300 MB upload to storage with bounded memory and the right SHA-256', async () => {
  const seller = await delivery.user('pro'); // 500 MB limit
  const totalBytes = 300 * MB;
  const block = randomBytes(MB);
  const form = multipart('film.mov', Buffer.alloc(0));
  const sentHash = createHash('sha256');

  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
  const started = performance.now();

  const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { 'content-type': form.contentType, authorization: seller.auth },
    });
    request.on('error', reject);
    request.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    // The same random block over and over, each copy varied by its index: generated, never held whole.
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes) {
        const piece = Buffer.from(block);
        piece.writeUInt32BE(sent / MB, 0);
        sentHash.update(piece);
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', pump);
      }
      request.end(form.tail);
    };
    request.write(form.head);
    pump();
  });

  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  const growthMb = (rssPeak - rssBefore) / MB;
  console.info(
    `300 MB upload: ${(300 / seconds).toFixed(0)} MB/s, peak RSS growth ${growthMb.toFixed(1)} MB`,
  );

  expect(response.status).toBe(201);
  const file = JSON.parse(response.body);
  expect(file.sizeBytes).toBe(totalBytes);
  expect(file.sha256).toBe(sentHash.digest('hex'));
  expect(growthMb).toBeLessThan(64);

  const { rows } = await delivery.db.query('SELECT storage_key FROM files WHERE id = $1', [
    file.id,
  ]);
  const storedHash = createHash('sha256');
  for await (const chunk of createReadStream(`${delivery.dataDir}/${rows[0].storage_key}`))
    storedHash.update(chunk);
  expect(storedHash.digest('hex')).toBe(file.sha256);
}, 60_000);

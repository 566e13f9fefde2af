import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewaysForTests } from './support/gateways.js';

/**
 * Files pass the gateway on their way to delivery as streams (@fastify/http-proxy). Delivery here
 * is a recorder of what reached it that answers as delivery does, after `answerAfterMs`; its own
 * handling of uploads is tested in delivery.
 */
interface Reached {
  url: string;
  headers: IncomingHttpHeaders;
  sha256: string;
  bytes: number;
}
let reached: Reached[] = [];
let answerAfterMs = 0;
let delivery: Server;
let deliveryUrl: string;
let gateways: Awaited<ReturnType<typeof gatewaysForTests>>;

beforeAll(async () => {
  delivery = createServer((request, response) => {
    const hash = createHash('sha256');
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    request.on('end', () => {
      reached.push({
        url: request.url ?? '',
        headers: request.headers,
        sha256: hash.digest('hex'),
        bytes,
      });
      setTimeout(() => {
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ id: 'file-1' }));
      }, answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => delivery.listen(0, '127.0.0.1', resolve));
  deliveryUrl = `http://127.0.0.1:${(delivery.address() as { port: number }).port}`;
  gateways = await gatewaysForTests();
});
afterAll(async () => {
  await gateways?.close();
  delivery?.closeAllConnections();
  await new Promise((resolve) => delivery?.close(resolve));
});
beforeEach(() => {
  reached = [];
  answerAfterMs = 0;
});

const gatewayTo = (upstream: string, env: Record<string, string> = {}) =>
  gateways.start({ DELIVERY_URL: upstream, ...env });

const BOUNDARY = 'lockdrop-test-boundary';
const multipart = (content: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="a.zip"\r\ncontent-type: application/zip\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The body in 64 KiB pieces with no declared length (chunked), as a streaming client sends it. */
function chunked(body: Buffer): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
}

const upload = (gateway: string, body: Buffer | ReadableStream<Uint8Array>) =>
  fetch(`${gateway}/api/uploads`, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      authorization: 'Bearer seller-token',
      'x-forwarded-for': '198.51.100.7',
    },
    body,
    duplex: 'half',
  } as RequestInit);

describe('uploads through the gateway', () => {
  it('reach delivery byte for byte, declared or chunked, with the caller’s token and the real client', async () => {
    const gateway = await gatewayTo(deliveryUrl);
    const body = multipart(randomBytes(8 * 1024 * 1024 + 7));

    for (const sent of [body, chunked(body)]) {
      const response = await upload(gateway, sent);
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ id: 'file-1' });
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }

    expect(reached).toHaveLength(2);
    for (const arrived of reached) {
      expect(arrived).toMatchObject({ url: '/api/uploads', bytes: body.length });
      expect(arrived.sha256).toBe(sha256(body));
      expect(arrived.headers.authorization).toBe('Bearer seller-token');
      expect(arrived.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(arrived.headers['x-request-id']).toBeTruthy();
    }
  });

  it('refuses a chunked file that passes the upload limit with 413, not as an unreachable service', async () => {
    const gateway = await gatewayTo(deliveryUrl, { UPLOAD_BODY_LIMIT_BYTES: String(256 * 1024) });
    const response = await upload(gateway, chunked(multipart(randomBytes(1024 * 1024))));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'payload_too_large',
    );
  });

  // Delivery answers only once the file is flushed to disk, which for a large file takes a
  // while: the proxy must not give up on a quiet upstream as reply-from's http client does
  // after 10 s (undici, the client used, waits 5 minutes).
  it('waits for delivery’s answer while it flushes a large file', { timeout: 30_000 }, async () => {
    const gateway = await gatewayTo(deliveryUrl);
    answerAfterMs = 11_000;
    const waited = await upload(gateway, multipart(randomBytes(1024)));
    expect(waited.status).toBe(201);
  });

  it('answers 502 in the shared shape when delivery is not reachable', async () => {
    const gateway = await gatewayTo('http://127.0.0.1:9');
    const response = await upload(gateway, multipart(randomBytes(1024)));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: {
        code: 'service_unavailable',
        message: 'The delivery service is not reachable right now',
      },
    });
  });
});

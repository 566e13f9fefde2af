import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCommand } from '../src/previews/isolated-render.js';
import { mp4Video } from './support/fixtures.js';
import {
  makeProduct,
  startDelivery,
  uploadFile,
  waitFor,
  type DeliveryHarness,
  type TestUser,
} from './support/harness.js';

/** CRC-32 as PNG chunks carry it. */
function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A 60 000 × 60 000 PNG (3.6 gigapixels) in a few hundred bytes: a decompression bomb. */
function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(60_000, 0);
  header.writeUInt32BE(60_000, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(60_001))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function productFor(delivery: DeliveryHarness, fileName: string, content: Buffer) {
  const seller: TestUser = await delivery.user('pro');
  const file = await uploadFile(delivery, seller, fileName, content);
  const product = makeProduct({ ownerId: seller.id, fileId: file.id, fileName });
  await delivery.publishProduct('product.created', product);
  const status = () =>
    delivery.app
      .inject({
        url: `/api/previews/${product.productId}/status`,
        headers: { authorization: seller.auth },
      })
      .then((response) => response.json());
  const preview = () =>
    delivery.app.inject({
      url: `/api/previews/${product.productId}`,
      headers: { authorization: seller.auth },
    });
  return { status, preview };
}

describe('untrusted files', () => {
  let delivery: DeliveryHarness;
  beforeAll(async () => {
    delivery = await startDelivery();
  });
  afterAll(() => delivery?.close());

  it('a decompression bomb fails at once, shows its type card, and the service carries on', async () => {
    const { status, preview } = await productFor(delivery, 'bomb.png', pngBomb());
    const settled = await waitFor(async () => {
      const current = await status();
      return current.status === 'failed' ? current : null;
    }, 20_000);
    expect(settled.status).toBe('failed');
    const card = await preview();
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toBe('image/jpeg');
    expect((await delivery.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('renders in a process given resource limits and no secret from the service', async () => {
    const { command, args, env } = await renderCommand(
      {
        kind: 'image',
        inputPath: '/tmp/in.png',
        outputPath: '/tmp/out.jpg',
        blurPercentage: 50,
        ffmpegPath: null,
      },
      { memoryMb: 512, cpuSeconds: 20, timeoutMs: 40_000, searchPath: '/usr/bin:/bin' },
    );
    expect(command).toBe('prlimit');
    expect(args.slice(0, 3)).toEqual([`--data=${512 * 1024 * 1024}`, '--cpu=20', '--']);
    expect(Object.keys(env)).toEqual(['PATH']);
    // Plain JavaScript, as in production: no TypeScript loader (and its worker thread) in the child.
    expect(args.slice(3).join(' ')).not.toMatch(/tsx|--import/);
  });
});

describe('without ffmpeg on the machine', () => {
  let delivery: DeliveryHarness;
  beforeAll(async () => {
    delivery = await startDelivery({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
  });
  afterAll(() => delivery?.close());

  it('gives a video its type card instead of failing', async () => {
    const { status, preview } = await productFor(delivery, 'clip.mp4', await mp4Video());
    const ready = await waitFor(async () => {
      const current = await status();
      return current.status === 'ready' ? current : null;
    }, 20_000);
    expect(ready.kind).toBe('video');
    expect((await preview()).statusCode).toBe(200);
  });
});

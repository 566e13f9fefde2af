import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { sha256 } from './support/purchases.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData } from '@lockdrop/contracts';
import { mp4Video, pdfDocument, pngImage, wavAudio, zipArchive } from './support/fixtures.js';
import {
  makeProduct,
  startDelivery,
  uploadFile as uploadTo,
  waitFor,
  type DeliveryHarness,
  type TestUser,
} from './support/harness.js';

let delivery: DeliveryHarness;
beforeAll(async () => {
  delivery = await startDelivery();
});
afterAll(() => delivery?.close());

const uploadFile = (seller: TestUser, fileName: string, content: Buffer) =>
  uploadTo(delivery, seller, fileName, content);

const previewOf = (productId: string, viewer?: TestUser, headers: Record<string, string> = {}) =>
  delivery.app.inject({
    url: `/api/previews/${productId}`,
    headers: { ...headers, ...(viewer ? { authorization: viewer.auth } : {}) },
  });

const statusOf = async (productId: string, viewer?: TestUser) =>
  (
    await delivery.app.inject({
      url: `/api/previews/${productId}/status`,
      headers: viewer ? { authorization: viewer.auth } : {},
    })
  ).json();

/** Waits until the product's preview is rendered and differs from `previousEtag`, then returns it. */
async function readyPreview(productId: string, owner: TestUser, previousEtag?: string) {
  return waitFor(async () => {
    const response = await previewOf(productId, owner);
    return response.statusCode === 200 && response.headers.etag !== previousEtag ? response : null;
  }, 30_000);
}

/** Creates a product for a freshly uploaded file and waits for its first preview. */
async function productWithPreview(
  fileName: string,
  content: Buffer,
  overrides: Partial<EventData<'product.updated'>> = {},
) {
  const seller = await delivery.user('pro');
  const file = await uploadFile(seller, fileName, content);
  const product = makeProduct({
    ownerId: seller.id,
    fileId: file.id,
    fileName,
    fileSizeBytes: content.length,
    ...overrides,
  });
  await delivery.publishProduct('product.created', product);
  return { seller, file, product, preview: await readyPreview(product.productId, seller) };
}

describe('previews rendered on the server for every kind of file', () => {
  const kinds = [
    ['image', 'checkerboard.png', pngImage, true],
    ['pdf', 'ebook.pdf', async () => pdfDocument(), true],
    ['video', 'clip.mp4', mp4Video, true],
    ['audio', 'tone.wav', async () => wavAudio(), false],
    ['document', 'bundle.zip', async () => zipArchive(), false],
  ] as const;

  it.each(kinds)(
    '%s: serves a new image, never the original bytes; a new blur level re-renders it',
    async (kind, fileName, make, blurShows) => {
      const original = await make();
      const { seller, file, product, preview } = await productWithPreview(fileName, original);
      expect(file.kind).toBe(kind);
      expect(preview.headers['content-type']).toBe('image/jpeg');
      expect(preview.headers['x-content-type-options']).toBe('nosniff');
      expect(sha256(preview.rawPayload)).not.toBe(sha256(original));
      const metadata = await sharp(preview.rawPayload).metadata();
      expect(metadata.format).toBe('jpeg');
      expect(Math.max(metadata.width, metadata.height)).toBeLessThanOrEqual(1200);
      expect(await statusOf(product.productId, seller)).toEqual({
        status: 'ready',
        kind,
        blurPercentage: 50,
        width: metadata.width,
        height: metadata.height,
      });

      await delivery.publishProduct('product.updated', { ...product, previewBlurPercentage: 100 });
      const reblurred = await waitFor(async () => {
        const state = await statusOf(product.productId, seller);
        return state.status === 'ready' && state.blurPercentage === 100
          ? previewOf(product.productId, seller)
          : null;
      }, 30_000);
      expect(reblurred.statusCode).toBe(200);
      expect(sha256(reblurred.rawPayload)).not.toBe(sha256(original));
      if (blurShows) expect(sha256(reblurred.rawPayload)).not.toBe(sha256(preview.rawPayload));

      const { rows } = await delivery.db.query(
        "SELECT payload FROM outbox WHERE type = 'file.processed' AND payload->'data'->>'fileId' = $1",
        [file.id],
      );
      expect(rows.map((row) => row.payload.data)).toContainEqual({
        fileId: file.id,
        ownerId: seller.id,
        kind,
        previewAvailable: true,
        blurPercentage: 100,
      });
    },
  );

  it('re-encodes even at 0% blur: smaller, no metadata, not the upload', async () => {
    const big = await sharp({
      create: { width: 2400, height: 1600, channels: 3, background: '#336699' },
    })
      .withMetadata({ exif: { IFD0: { Copyright: 'seller' } } })
      .jpeg()
      .toBuffer();
    const { preview } = await productWithPreview('big.jpg', big, { previewBlurPercentage: 0 });
    const metadata = await sharp(preview.rawPayload).metadata();
    expect([metadata.width, metadata.height]).toEqual([1200, 800]);
    expect(metadata.exif).toBeUndefined();
    expect(sha256(preview.rawPayload)).not.toBe(sha256(big));
  });

  it('blurs more at a higher percentage (the sharp edges of a checkerboard fade)', async () => {
    const image = await pngImage();
    const edgeStrength = async (bytes: Buffer) =>
      (await sharp(bytes).greyscale().stats()).channels[0]!.stdev;
    const light = (await productWithPreview('a.png', image, { previewBlurPercentage: 10 })).preview
      .rawPayload;
    const heavy = (await productWithPreview('b.png', image, { previewBlurPercentage: 90 })).preview
      .rawPayload;
    expect(await edgeStrength(heavy)).toBeLessThan((await edgeStrength(light)) * 0.8);
  });
});

describe('who sees a preview', () => {
  it('a draft preview is for its owner only; once published everyone sees it', async () => {
    const { seller, product } = await productWithPreview('draft.png', await pngImage());
    const stranger = await delivery.user('free');
    for (const viewer of [stranger, undefined]) {
      const response = await previewOf(product.productId, viewer);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('preview_not_available');
      expect(
        (
          await delivery.app.inject({
            url: `/api/previews/${product.productId}/status`,
            headers: viewer ? { authorization: viewer.auth } : {},
          })
        ).statusCode,
      ).toBe(404);
    }
    expect((await previewOf(product.productId, seller)).headers['cache-control']).toBe(
      'private, no-cache',
    );

    await delivery.publishProduct('product.published', { ...product, status: 'published' });
    const publicPreview = await waitFor(async () => {
      const response = await previewOf(product.productId);
      return response.statusCode === 200 ? response : null;
    });
    expect(publicPreview.headers['cache-control']).toBe('public, max-age=60');
    const etag = String(publicPreview.headers.etag);
    expect(
      (await previewOf(product.productId, undefined, { 'if-none-match': etag })).statusCode,
    ).toBe(304);

    await delivery.publishProduct('product.unpublished', { ...product, status: 'draft' });
    await waitFor(async () => (await previewOf(product.productId)).statusCode === 404);
  });

  it('a disabled preview is not served, and the status says so', async () => {
    const seller = await delivery.user('pro');
    const file = await uploadFile(seller, 'secret.png', await pngImage());
    const product = makeProduct({
      ownerId: seller.id,
      fileId: file.id,
      status: 'published',
      previewEnabled: false,
    });
    await delivery.publishProduct('product.created', product);
    await waitFor(async () => (await statusOf(product.productId)).status === 'disabled');
    const response = await previewOf(product.productId);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('preview_not_available');
  });

  it('says pending (202) until the render is done, and unknown products do not exist', async () => {
    const seller = await delivery.user('pro');
    const file = await uploadFile(seller, 'clip.mp4', await mp4Video());
    const product = makeProduct({ ownerId: seller.id, fileId: file.id });
    await delivery.publishProduct('product.created', product);
    const first = await waitFor(async () => {
      const response = await previewOf(product.productId, seller);
      return response.statusCode === 404 ? null : response;
    });
    expect([200, 202]).toContain(first.statusCode);
    if (first.statusCode === 202)
      expect(first.json()).toEqual({ status: 'pending', retryAfterSeconds: 2 });
    expect((await previewOf(randomUUID(), seller)).statusCode).toBe(404);
  });

  it('gives up on a file whose renders keep dying without an error, and shows its type card', async () => {
    const { seller, product, preview } = await productWithPreview('poison.png', await pngImage());
    // Three claims whose process died mid-render: counted, never finished, leases run out.
    await delivery.db.query(
      `UPDATE previews SET status = 'pending', attempts = 3, lease_until = now() - interval '1 second',
         updated_at = now() WHERE product_id = $1`,
      [product.productId],
    );
    const status = await waitFor(async () => {
      const current = await statusOf(product.productId, seller);
      return current.status === 'failed' ? current : null;
    }, 15_000);
    expect(status.status).toBe('failed');
    const { rows } = await delivery.db.query(
      'SELECT attempts, last_error FROM previews WHERE product_id = $1',
      [product.productId],
    );
    expect(rows[0].attempts).toBe(4);
    expect(rows[0].last_error).toMatch(/gave up after 3 claims/);
    const card = await previewOf(product.productId, seller);
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toBe('image/jpeg');
    expect(card.headers.etag).not.toBe(preview.headers.etag);
  });

  it("never renders another seller's file", async () => {
    const victim = await delivery.user('pro');
    const file = await uploadFile(victim, 'private.png', await pngImage());
    const thief = await delivery.user('pro');
    const product = makeProduct({ ownerId: thief.id, fileId: file.id, status: 'published' });
    await delivery.publishProduct('product.created', product);
    await waitFor(async () => (await statusOf(product.productId)).status === 'failed');
    expect((await previewOf(product.productId)).statusCode).toBe(404);
  });

  it('removes the preview when the product is deleted', async () => {
    const { seller, product } = await productWithPreview('gone.png', await pngImage(), {
      status: 'published',
    });
    const previewFiles = async () =>
      (await delivery.storedFiles()).filter((name) =>
        name.includes(`previews/${product.productId}/`),
      );
    expect(await previewFiles()).toHaveLength(1);
    await delivery.publishProductDeleted(product.productId, seller.id);
    await waitFor(async () => (await previewOf(product.productId, seller)).statusCode === 404);
    expect(await previewFiles()).toEqual([]);
  });
});

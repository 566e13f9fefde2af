import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogHarness,
  makeProduct,
  publish,
  type CatalogHarness,
  type Seller,
} from './support.js';

/**
 * A product's ordered file list through catalog's HTTP API (issue 13): add, replace, reorder
 * and remove in one PATCH, the preview source among them, the snapshot events delivery and
 * payments read, and "Tell my buyers" (product.files_added), at most once an hour.
 */
let harness: CatalogHarness;

beforeAll(async () => {
  harness = await createCatalogHarness();
});
afterAll(() => harness?.close());

const inject = (options: InjectOptions) => harness.app.inject(options);

function patch(seller: Seller, productId: string, payload: Record<string, unknown>) {
  return inject({
    method: 'PATCH',
    url: `/api/products/${productId}`,
    headers: seller.auth,
    payload,
  });
}

const upload = (seller: Seller, fileName: string, size: number) =>
  harness.upload(seller, { fileName, content: Buffer.alloc(size, 'x') });

const ids = (files: { fileId: string }[]) => files.map((file) => file.fileId);

describe('several files per product', () => {
  it('starts with the one file it was created from, as the preview source', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    expect(product.files).toEqual([
      {
        fileId: product.fileId,
        fileName: product.fileName,
        sizeBytes: product.fileSizeBytes,
        kind: product.fileKind,
      },
    ]);
    expect(product.buyersToldAt).toBeNull();
  });

  it('adds, reorders, replaces and removes files in one list, with the preview source among them', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    const workbook = await upload(seller, 'workbook.txt', 40);
    const audio = await upload(seller, 'chapter-1.txt', 70);

    const added = await patch(seller, product.id, {
      files: [{ fileId: workbook }, { fileId: product.fileId }, { fileId: audio }],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().files).toEqual([
      { fileId: workbook, fileName: 'workbook.txt', sizeBytes: 40, kind: 'document' },
      {
        fileId: product.fileId,
        fileName: product.fileName,
        sizeBytes: product.fileSizeBytes,
        kind: 'document',
      },
      { fileId: audio, fileName: 'chapter-1.txt', sizeBytes: 70, kind: 'document' },
    ]);
    // The preview source stays the file it was while that file stays in the list.
    expect(added.json().fileId).toBe(product.fileId);

    // The snapshot carries the list in order; product.files_added names only the new files.
    const [snapshot] = (await harness.outbox('product.updated', product.id)).slice(-1);
    expect(snapshot!.data.files).toEqual([
      { fileId: workbook, fileName: 'workbook.txt', fileSizeBytes: 40 },
      { fileId: product.fileId, fileName: product.fileName, fileSizeBytes: product.fileSizeBytes },
      { fileId: audio, fileName: 'chapter-1.txt', fileSizeBytes: 70 },
    ]);
    const [filesAdded] = await harness.outbox('product.files_added', product.id);
    expect(filesAdded!.data).toEqual({
      productId: product.id,
      ownerId: seller.id,
      productTitle: product.title,
      files: [
        { fileId: workbook, fileName: 'workbook.txt' },
        { fileId: audio, fileName: 'chapter-1.txt' },
      ],
      notifyBuyers: false,
    });

    // Removing the preview source makes the first file the preview source.
    const removed = await patch(seller, product.id, {
      files: [{ fileId: audio }, { fileId: workbook }],
    });
    expect(ids(removed.json().files)).toEqual([audio, workbook]);
    expect(removed.json()).toMatchObject({ fileId: audio, fileName: 'chapter-1.txt' });

    // fileId with the list picks the preview source; alone, it swaps that file in place.
    const picked = await patch(seller, product.id, {
      files: [{ fileId: audio }, { fileId: workbook }],
      fileId: workbook,
    });
    expect(picked.json()).toMatchObject({ fileId: workbook, fileSizeBytes: 40 });
    const replacement = await upload(seller, 'workbook-v2.txt', 44);
    const replaced = await patch(seller, product.id, { fileId: replacement });
    expect(ids(replaced.json().files)).toEqual([audio, replacement]);
    expect(replaced.json()).toMatchObject({ fileId: replacement, fileName: 'workbook-v2.txt' });
    const [, secondAdded] = await harness.outbox('product.files_added', product.id);
    expect(ids(secondAdded!.data.files)).toEqual([replacement]);

    // A reorder alone adds nothing: a snapshot, no product.files_added.
    const before = (await harness.outbox('product.files_added', product.id)).length;
    await patch(seller, product.id, { files: [{ fileId: replacement }, { fileId: audio }] });
    expect(await harness.outbox('product.files_added', product.id)).toHaveLength(before);
    const mine = await inject({ method: 'GET', url: '/api/products/mine', headers: seller.auth });
    expect(ids(mine.json().products[0].files)).toEqual([replacement, audio]);
  });

  it('says in words what is wrong with a list, and changes nothing', async () => {
    const seller = await harness.seller();
    const stranger = await harness.seller();
    const product = await makeProduct(harness, seller);
    const extra = await upload(seller, 'extra.txt', 10);
    const refusals: [Record<string, unknown>, number, string, string][] = [
      [{ files: [] }, 400, 'file_required', 'Please upload a file for your product'],
      [
        { files: [{ fileId: extra }, { fileId: extra }] },
        400,
        'duplicate_file',
        'Each file can be in the list only once',
      ],
      [
        { files: [{ fileId: extra }], fileId: product.fileId },
        400,
        'preview_file_not_listed',
        "The preview file must be one of the product's files",
      ],
      [
        { files: [{ fileId: product.fileId }, { fileId: await harness.upload(stranger) }] },
        400,
        'file_not_found',
        'We could not find that upload in your files; please upload it again',
      ],
      [
        { files: [{ fileId: product.fileId }], notifyBuyers: true },
        400,
        'nothing_to_tell',
        'Tell my buyers goes with a new or replaced file',
      ],
    ];
    for (const [payload, status, code, message] of refusals) {
      const response = await patch(seller, product.id, payload);
      expect(response.statusCode, code).toBe(status);
      expect(response.json()).toEqual({ error: { code, message } });
    }
    const tooMany = Array.from({ length: 21 }, () => ({ fileId: product.fileId }));
    expect((await patch(seller, product.id, { files: tooMany })).statusCode).toBe(400);

    const unchanged = await inject({
      method: 'GET',
      url: `/api/products/${product.id}`,
      headers: seller.auth,
    });
    expect(ids(unchanged.json().files)).toEqual([product.fileId]);
    expect(await harness.outbox('product.updated', product.id)).toHaveLength(0);
  });

  it('tells buyers about new files once an hour at most, and says when it can again', async () => {
    const seller = await harness.seller();
    const product = await makeProduct(harness, seller);
    const at = new Date('2026-11-26T10:00:00Z');
    harness.setNow(at);
    try {
      const first = await upload(seller, 'bonus-1.txt', 5);
      const told = await patch(seller, product.id, {
        files: [{ fileId: product.fileId }, { fileId: first }],
        notifyBuyers: true,
      });
      expect(told.statusCode).toBe(200);
      expect(told.json().buyersToldAt).toBe(at.toISOString());
      // When a seller last wrote to their buyers is the seller's business alone.
      const readBy = async (headers: Record<string, string>) =>
        (await harness.app.inject({ url: `/api/products/${product.id}`, headers })).json();
      expect((await readBy(seller.auth)).buyersToldAt).toBe(at.toISOString());
      await publish(harness, seller, product.id);
      const stranger = await harness.seller();
      expect((await readBy(stranger.auth)).buyersToldAt).toBeNull();
      expect((await readBy({})).buyersToldAt).toBeNull();
      const [event] = await harness.outbox('product.files_added', product.id);
      expect(event!.data).toMatchObject({ notifyBuyers: true, files: [{ fileId: first }] });

      harness.setNow(new Date(at.getTime() + 20 * 60_000));
      const second = await upload(seller, 'bonus-2.txt', 5);
      const list = { files: [{ fileId: product.fileId }, { fileId: first }, { fileId: second }] };
      const tooSoon = await patch(seller, product.id, { ...list, notifyBuyers: true });
      expect(tooSoon.statusCode).toBe(429);
      expect(tooSoon.json().error).toMatchObject({
        code: 'buyer_update_too_soon',
        message:
          'You told your buyers about this product less than an hour ago; you can tell them again in 40 minutes',
      });
      // Nothing of that request was saved: the seller can send it again without the e-mail.
      expect(await harness.outbox('product.files_added', product.id)).toHaveLength(1);
      const quiet = await patch(seller, product.id, list);
      expect(ids(quiet.json().files)).toEqual([product.fileId, first, second]);
      expect(quiet.json().buyersToldAt).toBe(at.toISOString());

      harness.setNow(new Date(at.getTime() + 61 * 60_000));
      const third = await upload(seller, 'bonus-3.txt', 5);
      const again = await patch(seller, product.id, {
        files: [...list.files, { fileId: third }],
        notifyBuyers: true,
      });
      expect(again.statusCode).toBe(200);
      const events = await harness.outbox('product.files_added', product.id);
      expect(events.map((e) => e.data.notifyBuyers)).toEqual([true, false, true]);
    } finally {
      harness.setNow(null);
    }
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readlink } from 'node:fs/promises';
import http from 'node:http';
import { crc32 } from 'node:zlib';
import type { EventData, PurchaseFiles } from '@lockdrop/contracts';
import { pdfPageTexts } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { pdfDocument } from './support/fixtures.js';
import { multipart, startDelivery, waitFor, type DeliveryHarness } from './support/harness.js';
import {
  bytesOf,
  errorOf,
  sha256,
  shop,
  type Caller,
  type TestPurchase,
} from './support/purchases.js';

/**
 * Several files per product, as a buyer gets them: the purchase's list, a link per file, and a
 * ZIP of all of them made as it is sent — and what a seller's change to the list does to them.
 */
let delivery: DeliveryHarness;
let baseUrl: string;
let store: ReturnType<typeof shop>;

beforeAll(async () => {
  delivery = await startDelivery();
  baseUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
  store = shop(delivery, baseUrl);
});
afterAll(() => delivery?.close());

interface SoldFile {
  id: string;
  fileName: string;
  sizeBytes: number;
  kind: string;
  content: Buffer;
}
type Product = EventData<'product.updated'>;

async function upload(sellerAuth: string, fileName: string, content: Buffer): Promise<SoldFile> {
  const form = multipart(fileName, content);
  const response = await fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: { 'content-type': form.contentType, authorization: sellerAuth },
    body: form.body,
  });
  expect(response.status).toBe(201);
  return { ...((await response.json()) as Omit<SoldFile, 'content'>), content };
}

/** Publishes the product with these files, in this order, as catalog would after an edit. */
async function setFiles(product: Product, files: SoldFile[], fileId = files[0]!.id) {
  const preview = files.find((file) => file.id === fileId)!;
  await delivery.publishProduct('product.updated', {
    ...product,
    fileId,
    fileName: preview.fileName,
    fileSizeBytes: preview.sizeBytes,
    files: files.map((file) => ({
      fileId: file.id,
      fileName: file.fileName,
      fileSizeBytes: file.sizeBytes,
    })),
  });
  const expected = files.map((file) => file.id);
  await waitFor(async () => {
    const { rows } = await delivery.db.query<{ fileIds: string[] }>(
      'SELECT file_ids AS "fileIds" FROM products WHERE product_id = $1',
      [product.productId],
    );
    return JSON.stringify(rows[0]?.fileIds) === JSON.stringify(expected);
  });
}

/** A product selling these files (the first is the preview source), by a new seller. */
async function sellFiles(
  contents: { fileName: string; content: Buffer }[],
  productOverrides: Partial<Product> = {},
) {
  const [first, ...others] = contents;
  const sold = await store.sellFile(first!.content, first!.fileName, productOverrides);
  const files: SoldFile[] = [
    {
      id: sold.file.id,
      fileName: first!.fileName,
      sizeBytes: sold.file.sizeBytes,
      kind: 'unknown',
      content: first!.content,
    },
  ];
  for (const other of others)
    files.push(await upload(sold.seller.auth, other.fileName, other.content));
  await setFiles(sold.product, files);
  return { seller: sold.seller, product: sold.product, files };
}

async function filesOf(purchaseId: string, caller: Caller): Promise<PurchaseFiles> {
  const response = await store.requestFiles(purchaseId, caller);
  expect(response.status).toBe(200);
  return (await response.json()) as PurchaseFiles;
}

async function fileBytes(purchaseId: string, fileId: string, caller: Caller) {
  const response = await store.requestLink(purchaseId, caller, fileId);
  expect(response.status).toBe(200);
  const link = (await response.json()) as { downloadUrl: string };
  return bytesOf(await fetch(`${baseUrl}${link.downloadUrl}`));
}

async function zipLink(purchaseId: string, caller: Caller) {
  const response = await store.requestZipLink(purchaseId, caller);
  expect(response.status).toBe(200);
  return (await response.json()) as {
    downloadUrl: string;
    fileName: string;
    sizeBytes: number;
    expiresAt: string;
  };
}

/** Every entry of a ZIP, in order, with its bytes checked against the CRC the archive records. */
function unzip(archive: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true, strictFileNames: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: { name: string; bytes: Buffer }[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        expect(entry.compressionMethod).toBe(0);
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            const bytes = Buffer.concat(chunks);
            expect(crc32(bytes)).toBe(entry.crc32);
            entries.push({ name: entry.fileName, bytes });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** Completed downloads recorded under the purchase's ZIP links. */
async function zipDownloads(purchaseId: string) {
  const { rows } = await delivery.db.query<{ fileId: string; bytesSent: number }>(
    `SELECT d.file_id AS "fileId", d.bytes_sent::int AS "bytesSent"
     FROM downloads d JOIN download_grants g ON g.id = d.grant_id
     WHERE g.purchase_id = $1 AND g.file_id IS NULL ORDER BY d.bytes_sent`,
    [purchaseId],
  );
  return rows;
}

const listed = (file: SoldFile) => ({
  fileId: file.id,
  fileName: file.fileName,
  sizeBytes: file.content.length,
  kind: expect.any(String),
});

/** Reads the start of a response over a raw socket, then drops the connection. */
function startAndDrop(url: string, keepBytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= keepBytes && !request.destroyed) {
          request.destroy();
          resolve();
        }
      });
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });
}

/** Stored files this process holds open (Linux: /proc/self/fd). */
async function openStoredFiles(): Promise<string[]> {
  const descriptors = await readdir('/proc/self/fd');
  const targets = await Promise.all(
    descriptors.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return targets.filter((target) => target.startsWith(delivery.dataDir));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

describe('a purchase of a product with three files', () => {
  let files: SoldFile[];
  let purchase: TestPurchase;
  let buyer: Caller;

  beforeAll(async () => {
    let product: Product;
    ({ product, files } = await sellFiles([
      { fileName: 'Track.wav', content: randomBytes(300 * 1024 + 3) },
      { fileName: 'Liner notes.txt', content: Buffer.from('Recorded in Lagos, 2026.\n') },
      // A second upload under the same name: the ZIP must not overwrite one with the other.
      { fileName: 'Track.wav', content: randomBytes(70 * 1024) },
    ]));
    purchase = await store.buy(product);
    buyer = await store.buyerAccount(purchase);
  });

  it("lists every file in the seller's order with its size, and the ZIP, without spending a link", async () => {
    const response = await store.requestFiles(purchase.paid.purchaseId, buyer);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(await response.json()).toEqual({
      files: files.map(listed),
      zip: { fileName: 'Sunset pack.zip', sizeBytes: expect.any(Number) },
    });
    // The browser that checked out lists them too (the same ways as a link).
    const browser = { cookie: `ld_buyer=${purchase.browserKey}` };
    expect((await filesOf(purchase.paid.purchaseId, browser)).files).toHaveLength(3);
    const { rows } = await delivery.db.query(
      'SELECT 1 FROM download_grants WHERE purchase_id = $1',
      [purchase.paid.purchaseId],
    );
    expect(rows).toHaveLength(0);
  });

  it('gives a link per file that downloads exactly that file', async () => {
    for (const file of files) {
      const response = await store.requestLink(purchase.paid.purchaseId, buyer, file.id);
      expect(await response.json()).toMatchObject({
        fileName: file.fileName,
        sizeBytes: file.content.length,
      });
      expect(sha256(await fileBytes(purchase.paid.purchaseId, file.id, buyer))).toBe(
        sha256(file.content),
      );
    }
    // Without a file: the one bought at checkout, as before.
    const main = await store.link(purchase.paid.purchaseId, buyer);
    expect(sha256(await bytesOf(await fetch(`${baseUrl}${main.downloadUrl}`)))).toBe(
      sha256(files[0]!.content),
    );
  });

  it('refuses a file that is not part of the purchase: 404 file_not_in_purchase', async () => {
    const { files: elsewhere } = await sellFiles([
      { fileName: 'other.bin', content: randomBytes(100) },
    ]);
    for (const fileId of [elsewhere[0]!.id, randomUUID()]) {
      const response = await store.requestLink(purchase.paid.purchaseId, buyer, fileId);
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toEqual({
        code: 'file_not_in_purchase',
        message: 'This file is not part of your purchase',
      });
    }
  });

  it('refuses whoever cannot claim the purchase, as links are refused', async () => {
    const stranger = await delivery.user('free');
    const { purchaseId } = purchase.paid;
    const asks = [
      (caller?: Caller) => store.requestFiles(purchaseId, caller),
      (caller?: Caller) => store.requestLink(purchaseId, caller, files[1]!.id),
      (caller?: Caller) => store.requestZipLink(purchaseId, caller),
    ];
    for (const ask of asks) {
      const anonymous = await ask();
      expect(anonymous.status).toBe(401);
      expect((await errorOf(anonymous)).code).toBe('auth_required');
      const other = await ask(stranger);
      expect(other.status).toBe(404);
      expect((await errorOf(other)).code).toBe('purchase_not_found');
      const wrongCookie = await ask({
        cookie: `ld_buyer=${randomBytes(32).toString('base64url')}`,
      });
      expect(wrongCookie.status).toBe(401);
    }
  });

  it('sends every file as one stored ZIP of the exact announced size, duplicates renamed', async () => {
    const { purchaseId } = purchase.paid;
    const link = await zipLink(purchaseId, buyer);
    expect(link).toEqual({
      downloadUrl: expect.stringMatching(/^\/dl\/[A-Za-z0-9_-]{71}$/),
      fileName: 'Sunset pack.zip',
      sizeBytes: (await filesOf(purchaseId, buyer)).zip.sizeBytes,
      expiresAt: expect.any(String),
    });

    // A Range is ignored: the ZIP is made as it is sent, always whole.
    const response = await fetch(`${baseUrl}${link.downloadUrl}`, {
      headers: { range: 'bytes=10-20' },
    });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'application/zip',
      'content-length': String(link.sizeBytes),
      'content-disposition': `attachment; filename="Sunset pack.zip"; filename*=UTF-8''Sunset%20pack.zip`,
      'accept-ranges': 'none',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    const archive = await bytesOf(response);
    expect(archive.length).toBe(link.sizeBytes);
    const entries = await unzip(archive);
    expect(entries.map((entry) => entry.name)).toEqual([
      'Track.wav',
      'Liner notes.txt',
      'Track (2).wav',
    ]);
    entries.forEach((entry, index) =>
      expect(sha256(entry.bytes)).toBe(sha256(files[index]!.content)),
    );

    // One completed download per file, under the ZIP's grant, with its event.
    await waitFor(async () => (await zipDownloads(purchaseId)).length === 3);
    expect(await zipDownloads(purchaseId)).toEqual(
      files
        .map((file) => ({ fileId: file.id, bytesSent: file.content.length }))
        .sort((a, b) => a.bytesSent - b.bytesSent),
    );
    await waitFor(
      async () =>
        delivery.completedDownloads.filter(
          (event) =>
            event.data.purchaseId === purchaseId &&
            event.data.fileId === files[2]!.id &&
            event.data.bytesSent === files[2]!.content.length,
        ).length > 0,
    );

    // HEAD: the same headers, no body, nothing counted.
    const head = await fetch(`${baseUrl}${link.downloadUrl}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(link.sizeBytes));
    expect((await bytesOf(head)).length).toBe(0);
    await settle();
    expect(await zipDownloads(purchaseId)).toHaveLength(3);
  });

  it('a ZIP dropped halfway closes what it was reading and is not a completed download', async () => {
    const { product } = await sellFiles([
      { fileName: 'a.bin', content: randomBytes(6 * 1024 * 1024) },
      { fileName: 'b.bin', content: randomBytes(6 * 1024 * 1024) },
    ]);
    const bigPurchase = await store.buy(product);
    const link = await zipLink(bigPurchase.paid.purchaseId, await store.buyerAccount(bigPurchase));
    await startAndDrop(`${baseUrl}${link.downloadUrl}`, 1024 * 1024);
    await settle();
    // The entry being read when the client left was closed, not left open (this process is the service).
    expect(await openStoredFiles()).toEqual([]);
    expect(await zipDownloads(bigPurchase.paid.purchaseId)).toEqual([]);
  });
});

describe('a ZIP link is held to what a file link is', () => {
  it('a refund after the link was given stops it', async () => {
    const { product } = await sellFiles([
      { fileName: 'one.bin', content: randomBytes(500) },
      { fileName: 'two.bin', content: randomBytes(600) },
    ]);
    const purchase = await store.buy(product);
    const link = await zipLink(purchase.paid.purchaseId, await store.buyerAccount(purchase));
    await store.refund(purchase);
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${baseUrl}${link.downloadUrl}`, { method });
      expect(response.status, method).toBe(403);
      if (method === 'GET') expect((await errorOf(response)).code).toBe('purchase_refunded');
    }
  });

  it('spends the same hourly budget as file links', async () => {
    const { product, files } = await sellFiles([
      { fileName: 'one.bin', content: randomBytes(50) },
      { fileName: 'two.bin', content: randomBytes(60) },
    ]);
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    for (let link = 0; link < 29; link += 1)
      expect((await store.requestLink(purchase.paid.purchaseId, buyer, files[1]!.id)).status).toBe(
        200,
      );
    await zipLink(purchase.paid.purchaseId, buyer);
    const refused = await store.requestZipLink(purchase.paid.purchaseId, buyer);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await store.requestLink(purchase.paid.purchaseId, buyer)).status).toBe(429);
  });
});

describe("a seller's changes to the files", () => {
  it('a replaced file stays with whoever bought it, beside the new one', async () => {
    const { seller, product, files } = await sellFiles([
      { fileName: 'Guide v1.txt', content: Buffer.from('first edition') },
      { fileName: 'Extras.txt', content: Buffer.from('extras') },
    ]);
    const [v1, extras] = files as [SoldFile, SoldFile];
    const early = await store.buy(product);
    const earlyBuyer = await store.buyerAccount(early);

    const v2 = await upload(seller.auth, 'Guide v2.txt', Buffer.from('second edition'));
    await setFiles(product, [v2, extras]);
    const late = await store.buy({ ...product, fileId: v2.id });

    expect((await filesOf(early.paid.purchaseId, earlyBuyer)).files).toEqual(
      [v2, extras, v1].map(listed),
    );
    expect((await filesOf(late.paid.purchaseId, await store.buyerAccount(late))).files).toEqual(
      [v2, extras].map(listed),
    );
    expect(sha256(await fileBytes(early.paid.purchaseId, v1.id, earlyBuyer))).toBe(
      sha256(v1.content),
    );
    expect(sha256(await fileBytes(early.paid.purchaseId, v2.id, earlyBuyer))).toBe(
      sha256(v2.content),
    );
  });

  it('a removed file is gone for a buyer who did not buy it at checkout, ZIP links given before included', async () => {
    const { product, files } = await sellFiles([
      { fileName: 'Main.txt', content: Buffer.from('main') },
      { fileName: 'Bonus.txt', content: Buffer.from('bonus') },
    ]);
    const [main, bonus] = files as [SoldFile, SoldFile];
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const earlierZip = await zipLink(purchase.paid.purchaseId, buyer);

    await setFiles(product, [main]);
    expect((await filesOf(purchase.paid.purchaseId, buyer)).files).toEqual([listed(main)]);
    const refused = await store.requestLink(purchase.paid.purchaseId, buyer, bonus.id);
    expect(refused.status).toBe(404);
    expect((await errorOf(refused)).code).toBe('file_not_in_purchase');
    // The ZIP is made of the files at redemption.
    const response = await fetch(`${baseUrl}${earlierZip.downloadUrl}`);
    expect(response.status).toBe(200);
    expect((await unzip(await bytesOf(response))).map((entry) => entry.name)).toEqual(['Main.txt']);
  });

  it('a link to a file given before the seller removed it from the product no longer serves it: 404 file_not_in_purchase', async () => {
    const { product, files } = await sellFiles([
      { fileName: 'Main.txt', content: Buffer.from('main') },
      { fileName: 'Bonus.txt', content: Buffer.from('bonus') },
    ]);
    const [main, bonus] = files as [SoldFile, SoldFile];
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const response = await store.requestLink(purchase.paid.purchaseId, buyer, bonus.id);
    const { downloadUrl } = (await response.json()) as { downloadUrl: string };

    await setFiles(product, [main]);
    const refused = await fetch(`${baseUrl}${downloadUrl}`);
    expect(refused.status).toBe(404);
    expect(await errorOf(refused)).toEqual({
      code: 'file_not_in_purchase',
      message: 'This file is not part of your purchase',
    });
    // The file the buyer bought at checkout stays theirs, whatever the product lists.
    await setFiles(product, [bonus]);
    expect(sha256(await fileBytes(purchase.paid.purchaseId, main.id, buyer))).toBe(
      sha256(main.content),
    );
  });

  it("a product's second file cannot be deleted while the product sells it, nor after, while buyers hold it", async () => {
    const { seller, product, files } = await sellFiles([
      { fileName: 'Main.txt', content: Buffer.from('main') },
      { fileName: 'Second.txt', content: Buffer.from('second') },
      { fileName: 'Third.txt', content: Buffer.from('third') },
    ]);
    const [main, second, third] = files as [SoldFile, SoldFile, SoldFile];
    const remove = (file: SoldFile) =>
      fetch(`${baseUrl}/api/uploads/${file.id}`, {
        method: 'DELETE',
        headers: { authorization: seller.auth },
      });
    const inUse = await remove(second);
    expect(inUse.status).toBe(409);
    expect((await errorOf(inUse)).code).toBe('file_in_use');

    // Taken off the product before anyone bought it: it may go.
    await setFiles(product, [main, second]);
    expect((await remove(third)).status).toBe(204);

    // Bought, then the product deleted: its buyers keep every file, so the file stays.
    const purchase = await store.buy(product);
    await delivery.publishProductDeleted(product.productId, seller.id);
    await waitFor(
      async () =>
        (
          await delivery.db.query('SELECT 1 FROM products WHERE product_id = $1 AND deleted', [
            product.productId,
          ])
        ).rowCount,
    );
    const kept = await remove(second);
    expect(kept.status).toBe(409);
    expect((await errorOf(kept)).code).toBe('file_in_use');
    const buyer = await store.buyerAccount(purchase);
    expect((await filesOf(purchase.paid.purchaseId, buyer)).files).toEqual(
      [main, second].map(listed),
    );
    expect(sha256(await fileBytes(purchase.paid.purchaseId, second.id, buyer))).toBe(
      sha256(second.content),
    );
  });
});

describe('stamped PDFs in the ZIP', () => {
  it("are the buyer's own stamped copy, never the original, and the announced size is exact", async () => {
    const original = pdfDocument('Chapter one');
    const { product, files } = await sellFiles(
      [
        { fileName: 'ebook.pdf', content: original },
        { fileName: 'readme.txt', content: Buffer.from('read me') },
      ],
      { stampPdfs: true },
    );
    const purchase = await store.buy(product, { buyerEmail: 'ada@example.com' });
    const buyer = await store.buyerAccount(purchase);

    const link = await zipLink(purchase.paid.purchaseId, buyer);
    const response = await fetch(`${baseUrl}${link.downloadUrl}`);
    const archive = await bytesOf(response);
    expect(response.headers.get('content-length')).toBe(String(archive.length));
    expect(archive.length).toBe(link.sizeBytes);
    const [ebook, readme] = await unzip(archive);
    expect(ebook!.name).toBe('ebook.pdf');
    expect(sha256(ebook!.bytes)).not.toBe(sha256(original));
    const [page] = await pdfPageTexts(ebook!.bytes);
    expect(page).toContain('Chapter one');
    expect(page).toContain('Licensed to ada@example.com');
    expect(readme!.bytes.toString()).toBe('read me');

    // The same copy as the PDF's own link, and the list now tells its size.
    expect(sha256(await fileBytes(purchase.paid.purchaseId, files[0]!.id, buyer))).toBe(
      sha256(ebook!.bytes),
    );
    const listing = await filesOf(purchase.paid.purchaseId, buyer);
    expect(listing.files[0]!.sizeBytes).toBe(ebook!.bytes.length);
    expect(listing.zip.sizeBytes).toBe(archive.length);
  });
});

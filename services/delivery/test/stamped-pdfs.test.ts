import { existsSync } from 'node:fs';
import path from 'node:path';
import { pdfPageTexts as pageTexts } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfDocument } from './support/fixtures.js';
import { startDelivery, type DeliveryHarness } from './support/harness.js';
import { bytesOf, sha256, shop } from './support/purchases.js';
import { watchStampers } from './support/stampers.js';

/**
 * A product's `stampPdfs` option through delivery's HTTP API: each buyer downloads their own
 * copy of the PDF with "Licensed to <their e-mail>" on every page, made once and served like any
 * file; a PDF that cannot be stamped falls back to the original and the seller is told why.
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

async function download(purchase: Awaited<ReturnType<typeof store.buy>>, range?: string) {
  const buyer = await store.buyerAccount(purchase);
  const link = await store.link(purchase.paid.purchaseId, buyer);
  return fetch(`${baseUrl}${link.downloadUrl}`, range ? { headers: { range } } : {});
}

async function stamping(sellerAuth: string, fileId: string) {
  const response = await fetch(`${baseUrl}/api/uploads/${fileId}/pdf-stamping`, {
    headers: { authorization: sellerAuth },
  });
  return { status: response.status, body: await response.json() };
}

describe('stamped PDFs', () => {
  it('gives each buyer their own stamped copy, made once, with Range and ETag of that copy', async () => {
    const original = pdfDocument('Secret chapter one');
    const { file, product, seller } = await store.sellFile(original, 'ebook.pdf', {
      stampPdfs: true,
    });
    const ada = await store.buy(product, { buyerEmail: 'ada@example.com' });
    const bayo = await store.buy(product, { buyerEmail: 'bayo@example.com' });

    const first = await download(ada);
    expect(first.status).toBe(200);
    const adaCopy = await bytesOf(first);
    expect(sha256(adaCopy)).not.toBe(file.sha256);
    expect(first.headers.get('etag')).toBe(`"${sha256(adaCopy)}"`);
    expect(first.headers.get('content-length')).toBe(String(adaCopy.length));
    expect(first.headers.get('content-type')).toBe('application/pdf');
    const [page] = await pageTexts(adaCopy);
    expect(page).toContain('Secret chapter one');
    expect(page).toContain('Licensed to ada@example.com');

    // The second download is the same copy, not a new one; a Range resumes inside it.
    const again = await bytesOf(await download(ada));
    expect(sha256(again)).toBe(sha256(adaCopy));
    const partial = await download(ada, 'bytes=100-199');
    expect(partial.status).toBe(206);
    expect(await bytesOf(partial)).toEqual(adaCopy.subarray(100, 200));

    const bayoCopy = await bytesOf(await download(bayo));
    expect((await pageTexts(bayoCopy))[0]).toContain('Licensed to bayo@example.com');
    expect((await pageTexts(bayoCopy))[0]).not.toContain('ada@example.com');

    const { rows } = await delivery.db.query(
      'SELECT buyer_email FROM stamped_copies WHERE file_id = $1 ORDER BY buyer_email',
      [file.id],
    );
    expect(rows).toEqual([{ buyer_email: 'ada@example.com' }, { buyer_email: 'bayo@example.com' }]);
    expect(await stamping(seller.auth, file.id)).toEqual({
      status: 200,
      body: { status: 'available', message: null },
    });
  });

  it('makes one copy when a buyer’s first downloads race', async () => {
    const { file, product } = await store.sellFile(pdfDocument(), 'race.pdf', { stampPdfs: true });
    const purchase = await store.buy(product);
    const watch = watchStampers();
    let bodies: Buffer[];
    try {
      bodies = await Promise.all(
        Array.from({ length: 4 }, async () => bytesOf(await download(purchase))),
      );
    } finally {
      await watch.stop();
    }
    expect(new Set(bodies.map(sha256)).size).toBe(1);
    // One stamping process for the four: the requests share one job.
    expect(watch.seen).toHaveLength(1);
    const { rows } = await delivery.db.query(
      'SELECT count(*)::int AS copies FROM stamped_copies WHERE file_id = $1',
      [file.id],
    );
    expect(rows[0].copies).toBe(1);
  });

  it('forgets a refunded buyer’s copy once no purchase of theirs reaches the file', async () => {
    const { file, product } = await store.sellFile(pdfDocument(), 'refund.pdf', {
      stampPdfs: true,
    });
    const first = await store.buy(product, { buyerEmail: 'twice@example.com' });
    const second = await store.buy(product, { buyerEmail: 'twice@example.com' });
    await bytesOf(await download(first));
    const copyOf = async () =>
      (
        await delivery.db.query<{ storage_key: string }>(
          'SELECT storage_key FROM stamped_copies WHERE file_id = $1',
          [file.id],
        )
      ).rows[0]?.storage_key;
    const key = await copyOf();
    expect(key).toBeDefined();
    const stored = path.join(delivery.dataDir, key!);
    expect(existsSync(stored)).toBe(true);

    // The second purchase still reaches the file: the copy stays.
    await store.refund(first);
    expect(await copyOf()).toBe(key);
    await store.refund(second);
    expect(await copyOf()).toBeUndefined();
    expect(existsSync(stored)).toBe(false);
  });

  it('sends the original when the option is off', async () => {
    const original = pdfDocument();
    const { product } = await store.sellFile(original, 'plain.pdf');
    const purchase = await store.buy(product);
    expect(sha256(await bytesOf(await download(purchase)))).toBe(sha256(original));
  });

  it('falls back to the original for a password-protected PDF, and tells the seller why', async () => {
    const original = pdfDocument('Locked', { encrypted: true });
    const { file, product, seller } = await store.sellFile(original, 'locked.pdf', {
      stampPdfs: true,
    });
    expect(await stamping(seller.auth, file.id)).toEqual({
      status: 200,
      body: {
        status: 'encrypted',
        message: 'This PDF is password-protected, so buyers get it unstamped',
      },
    });
    const purchase = await store.buy(product);
    expect(sha256(await bytesOf(await download(purchase)))).toBe(sha256(original));
  });

  it('falls back to the original for a damaged PDF, found on the first download', async () => {
    const original = Buffer.from('%PDF-1.7\n% nothing after the header\n');
    const { file, product, seller } = await store.sellFile(original, 'broken.pdf', {
      stampPdfs: true,
    });
    const purchase = await store.buy(product);
    expect(sha256(await bytesOf(await download(purchase)))).toBe(sha256(original));
    expect((await stamping(seller.auth, file.id)).body).toEqual({
      status: 'malformed',
      message: 'This PDF could not be read, so buyers get it unstamped',
    });
  });

  it('answers only the file’s owner, and says stamping is for PDFs', async () => {
    const { file, seller } = await store.sellFile(Buffer.from('just text'), 'notes.txt');
    expect((await stamping(seller.auth, file.id)).body).toEqual({
      status: 'not_pdf',
      message: 'Stamping applies to PDF files only',
    });
    const stranger = await delivery.user('pro');
    expect((await stamping(stranger.auth, file.id)).status).toBe(404);
  });
});

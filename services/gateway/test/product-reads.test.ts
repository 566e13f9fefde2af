import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createEvent, type ProductDetail } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductReads } from '../src/storefront/product-reads.js';

// A catalog that answers one published product and counts how often it was asked.
const ownerId = randomUUID();
const productId = randomUUID();
let storeDomain: string | null = null;
let asked = 0;
let catalog: Server;
let catalogUrl: string;

function productRead(): ProductDetail {
  const at = new Date().toISOString();
  const price = { amountMinor: 1_000, currency: 'USD', amount: '10.00', formatted: '$10.00' };
  return {
    id: productId,
    ownerId,
    title: 'Field recordings',
    description: null,
    priceMinor: 1_000,
    currency: 'USD',
    price: '10.00',
    priceFormatted: '$10.00',
    pricing: { type: 'one_time' },
    payWhatYouWant: null,
    status: 'published',
    fileId: randomUUID(),
    fileName: 'field.zip',
    fileSizeBytes: 1_000,
    fileKind: 'document',
    files: [{ fileId: randomUUID(), fileName: 'field.zip', sizeBytes: 1_000, kind: 'document' }],
    buyersToldAt: null,
    previewEnabled: false,
    previewBlurPercentage: 50,
    stampPdfs: false,
    createdAt: at,
    updatedAt: at,
    publishedAt: at,
    viewerIsOwner: false,
    display: { ...price, converted: false, warning: null },
    displayMinimum: null,
    brand: null,
    sellerName: null,
    storeDomain,
  };
}

beforeAll(async () => {
  catalog = createServer((_request, response) => {
    asked += 1;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(productRead()));
  });
  await new Promise<void>((resolve) => catalog.listen(0, '127.0.0.1', resolve));
  catalogUrl = `http://127.0.0.1:${(catalog.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => catalog.close(resolve)));

describe("the gateway's kept product reads", () => {
  it("drop a seller's products when their domain is verified or paused (the canonical address changes)", async () => {
    const reads = createProductReads({ catalogUrl, isLive: () => true, maxAgeMs: 60_000 });
    expect((await reads.get(productId, null, 'r1')).published?.storeDomain).toBeNull();
    await reads.get(productId, null, 'r2');
    expect(asked).toBe(1);

    storeDomain = 'shop.example.com';
    // Another seller's domain changes nothing here.
    reads.onEvent(
      createEvent(
        'store.domain_updated',
        { sellerId: randomUUID(), host: 'other.example.com', status: 'verified' },
        { correlationId: 'test' },
      ),
    );
    expect((await reads.get(productId, null, 'r3')).published?.storeDomain).toBeNull();
    reads.onEvent(
      createEvent(
        'store.domain_updated',
        { sellerId: ownerId, host: 'shop.example.com', status: 'verified' },
        { correlationId: 'test' },
      ),
    );
    expect((await reads.get(productId, null, 'r4')).published?.storeDomain).toBe(
      'shop.example.com',
    );
    expect(asked).toBe(2);
  });
});

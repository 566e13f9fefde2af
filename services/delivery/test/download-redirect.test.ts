import { randomBytes } from 'node:crypto';
import { s3StorageEnv, startS3Server, type S3TestServer } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelivery, waitFor, type DeliveryHarness } from './support/harness.js';
import { bytesOf, errorOf, sha256, shop } from './support/purchases.js';

// STORAGE_BACKEND=s3 with DOWNLOAD_OFFLOAD=s3-redirect against a real S3 server (s3rver):
// delivery checks every request, then sends the buyer to a presigned bucket URL.
let s3: S3TestServer;
let delivery: DeliveryHarness;
let deliveryUrl: string;
let store: ReturnType<typeof shop>;

beforeAll(async () => {
  s3 = await startS3Server();
  delivery = await startDelivery({ ...s3StorageEnv(s3), DOWNLOAD_OFFLOAD: 's3-redirect' });
  deliveryUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
  store = shop(delivery, deliveryUrl);
});
afterAll(async () => {
  await delivery?.close();
  await s3?.stop();
});

const redeem = (downloadUrl: string, headers: Record<string, string> = {}) =>
  fetch(`${deliveryUrl}${downloadUrl}`, { headers, redirect: 'manual' });

describe('downloads from the bucket after delivery checked them', () => {
  it('redirects to a URL valid for a minute that answers the exact file as an attachment', async () => {
    // Several multipart parts on the way in (8 MiB each).
    const original = randomBytes(17 * 1024 * 1024 + 3);
    const { file, purchase, link } = await store.purchasedFile(original);
    const redirect = await redeem(link.downloadUrl);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('cache-control')).toBe('private, no-store');
    const location = new URL(redirect.headers.get('location')!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[a-f0-9]{64}$/);

    const fromBucket = await fetch(location);
    expect(fromBucket.status).toBe(200);
    expect(fromBucket.headers.get('content-disposition')).toBe(
      `attachment; filename="Stems _ Lagos.zip"; filename*=UTF-8''Stems%20%E2%80%94%20Lagos.zip`,
    );
    expect(fromBucket.headers.get('content-type')).toBe(file.contentType);
    expect(sha256(await bytesOf(fromBucket))).toBe(sha256(original));
    await waitFor(async () =>
      delivery.completedDownloads.some((e) => e.data.purchaseId === purchase.paid.purchaseId),
    );

    // A resumed download: the browser repeats its Range to the bucket after the redirect.
    const resumed = await fetch(`${deliveryUrl}${link.downloadUrl}`, {
      headers: { range: 'bytes=1000-1999' },
    });
    expect(resumed.status).toBe(206);
    expect((await bytesOf(resumed)).equals(original.subarray(1000, 2000))).toBe(true);

    // What the buyer's browser is told to show is part of the signed query (S3 signs every
    // query parameter; s3rver does not check presigned signatures, so tampering is not tried).
    expect(location.searchParams.get('response-content-disposition')).toMatch(/^attachment;/);
    expect(location.searchParams.get('X-Amz-Credential')).toMatch(
      new RegExp(`^${s3.credentials.accessKeyId}/\\d{8}/${s3.region}/s3/aws4_request$`),
    );
  });

  it('re-checks the entitlement before every redirect: a refund stops the link', async () => {
    const { purchase, link } = await store.purchasedFile(randomBytes(4096));
    expect((await redeem(link.downloadUrl)).status).toBe(302);
    await store.refund(purchase);
    const refused = await redeem(link.downloadUrl);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('location')).toBeNull();
    expect((await errorOf(refused)).code).toBe('purchase_refunded');
  });
});

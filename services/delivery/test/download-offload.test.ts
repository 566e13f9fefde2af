import { randomBytes } from 'node:crypto';
import { freePort, nginxAvailable, startNginxEdge, type NginxEdge } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelivery, waitFor, type DeliveryHarness } from './support/harness.js';
import { bytesOf, errorOf, sha256, shop } from './support/purchases.js';

// DOWNLOAD_OFFLOAD=x-accel behind deploy/base/nginx/delivery-edge.conf, run by a real nginx
// (.ci/run installs it): delivery decides, nginx sends the bytes.
let delivery: DeliveryHarness;
let edge: NginxEdge;
let store: ReturnType<typeof shop>;
let deliveryUrl: string;

beforeAll(async () => {
  if (!nginxAvailable()) throw new Error('nginx is required (apt-get install nginx-light)');
  delivery = await startDelivery({ DOWNLOAD_OFFLOAD: 'x-accel' });
  deliveryUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
  store = shop(delivery, deliveryUrl);
  edge = await startNginxEdge({
    port: await freePort(),
    deliveryUrl,
    dataDir: delivery.dataDir,
  });
});
afterAll(async () => {
  await edge?.stop();
  await delivery?.close();
});

const viaEdge = (downloadUrl: string, headers: Record<string, string> = {}) =>
  fetch(`${edge.url}${downloadUrl}`, { headers });

describe('downloads sent by nginx after delivery checked them', () => {
  it("sends the exact file with delivery's headers and counts the download once", async () => {
    const original = randomBytes(2 * 1024 * 1024 + 5);
    const { file, purchase, link } = await store.purchasedFile(original);
    const response = await viaEdge(link.downloadUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('server')).toBe('nginx');
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-length': String(original.length),
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="Stems _ Lagos.zip"; filename*=UTF-8''Stems%20%E2%80%94%20Lagos.zip`,
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'referrer-policy': 'no-referrer',
      'accept-ranges': 'bytes',
      etag: `"${file.sha256}"`,
    });
    expect(response.headers.get('x-accel-redirect')).toBeNull();
    expect(sha256(await bytesOf(response))).toBe(sha256(original));
    // The bytes came from nginx: delivery itself answers only where to find them.
    const decided = await fetch(`${deliveryUrl}${link.downloadUrl}`);
    expect(decided.headers.get('x-accel-redirect')).toMatch(/^\/_lockdrop\/files\/whole\/.+/);
    expect((await bytesOf(decided)).length).toBe(0);
    await waitFor(async () =>
      delivery.completedDownloads.some((e) => e.data.purchaseId === purchase.paid.purchaseId),
    );
  });

  it('resumes with Range, and sends the whole file when If-Range names an older version', async () => {
    const original = randomBytes(1024 * 1024);
    const { file, link } = await store.purchasedFile(original);
    const resumed = await viaEdge(link.downloadUrl, {
      range: 'bytes=1000-',
      'if-range': `"${file.sha256}"`,
    });
    expect(resumed.status).toBe(206);
    expect(resumed.headers.get('content-range')).toBe(
      `bytes 1000-${original.length - 1}/${original.length}`,
    );
    expect((await bytesOf(resumed)).equals(original.subarray(1000))).toBe(true);

    const changed = await viaEdge(link.downloadUrl, {
      range: 'bytes=1000-',
      'if-range': '"an-older-version"',
    });
    expect(changed.status).toBe(200);
    expect((await bytesOf(changed)).equals(original)).toBe(true);

    const outside = await viaEdge(link.downloadUrl, { range: `bytes=${original.length + 5}-` });
    expect(outside.status).toBe(416);
    expect((await errorOf(outside)).code).toBe('range_not_satisfiable');
  });

  it('re-checks the entitlement on every request: a refund stops the link at the edge', async () => {
    const { purchase, link } = await store.purchasedFile(randomBytes(4096));
    expect((await viaEdge(link.downloadUrl)).status).toBe(200);
    await store.refund(purchase);
    const refused = await viaEdge(link.downloadUrl);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('purchase_refunded');
  });

  it('refuses forged links, and never serves the data directory to a direct request', async () => {
    const { file, link } = await store.purchasedFile(randomBytes(4096));
    const forged = await viaEdge(`${link.downloadUrl.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(403);
    expect((await errorOf(forged)).code).toBe('download_link_invalid');
    const { rows } = await delivery.db.query('SELECT storage_key FROM files WHERE id = $1', [
      file.id,
    ]);
    for (const prefix of ['ranged', 'whole'])
      expect((await viaEdge(`/_lockdrop/files/${prefix}/${rows[0].storage_key}`)).status).toBe(404);
  });
});

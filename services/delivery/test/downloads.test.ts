import { randomBytes, randomUUID } from 'node:crypto';
import { createEvent } from '@lockdrop/contracts';
import { purchaseRefundedData, testEvent } from '@lockdrop/testing';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelivery, waitFor, type DeliveryHarness } from './support/harness.js';
import { bytesOf, errorOf, refundedEvent, sha256, shop } from './support/purchases.js';

let delivery: DeliveryHarness;
let baseUrl: string;
let store: ReturnType<typeof shop>;

beforeAll(async () => {
  delivery = await startDelivery();
  baseUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
  store = shop(delivery, baseUrl);
});
afterAll(() => delivery?.close());

const get = (downloadUrl: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${baseUrl}${downloadUrl}`, { method, headers });

const completedFor = (purchaseId: string) =>
  delivery.completedDownloads.filter((event) => event.data.purchaseId === purchaseId);

/** Enough time for an event the relay would publish (it is woken by NOTIFY) to reach the observer. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

/** Reads the start of a download over a raw socket, then drops the connection, as a failing mobile link does. */
function startAndDrop(url: string, keepBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        if (received >= keepBytes) return;
        chunks.push(chunk);
        received += chunk.length;
        if (received >= keepBytes) {
          request.destroy();
          resolve(Buffer.concat(chunks));
        }
      });
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });
}

describe('the money path ends in a download of the exact file', () => {
  it('upload → product → purchase.paid → link → /dl returns the original bytes, once counted as completed', async () => {
    const original = randomBytes(3 * 1024 * 1024 + 17);
    const { file, product } = await store.sellFile(original, 'Field recordings — Lagos.zip');
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);

    const link = await store.link(purchase.paid.purchaseId, buyer);
    expect(link).toEqual({
      downloadUrl: expect.stringMatching(/^\/dl\/[A-Za-z0-9_-]{71}$/),
      fileName: 'Field recordings — Lagos.zip',
      sizeBytes: original.length,
      expiresAt: expect.any(String),
    });
    const validFor = Date.parse(link.expiresAt) - Date.now();
    expect(validFor).toBeGreaterThan(59 * 60 * 1000);
    expect(validFor).toBeLessThanOrEqual(60 * 60 * 1000);

    const response = await get(link.downloadUrl);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-length': String(original.length),
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="Field recordings _ Lagos.zip"; filename*=UTF-8''Field%20recordings%20%E2%80%94%20Lagos.zip`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'accept-ranges': 'bytes',
      etag: `"${file.sha256}"`,
    });
    expect(sha256(await bytesOf(response))).toBe(sha256(original));

    await waitFor(async () => completedFor(purchase.paid.purchaseId).length > 0);
    await settle();
    expect(completedFor(purchase.paid.purchaseId).map((event) => event.data)).toEqual([
      {
        purchaseId: purchase.paid.purchaseId,
        productId: product.productId,
        fileId: file.id,
        bytesSent: original.length,
      },
    ]);

    // HEAD: the same headers, no body, and no download counted.
    const head = await get(link.downloadUrl, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(original.length));
    expect((await bytesOf(head)).length).toBe(0);
    await settle();
    expect(completedFor(purchase.paid.purchaseId)).toHaveLength(1);
  });
});

describe('Range requests', () => {
  let original: Buffer;
  let downloadUrl: string;
  let purchaseId: string;

  beforeAll(async () => {
    original = randomBytes(64 * 1024);
    const { product } = await store.sellFile(original, 'track.wav');
    const purchase = await store.buy(product);
    purchaseId = purchase.paid.purchaseId;
    ({ downloadUrl } = await store.link(purchaseId, { cookie: `ld_buyer=${purchase.browserKey}` }));
  });

  it.each([
    ['bytes=100-199', 100, 199],
    ['bytes=65000-', 65000, 64 * 1024 - 1],
    ['bytes=-10', 64 * 1024 - 10, 64 * 1024 - 1],
    ['bytes=0-999999', 0, 64 * 1024 - 1],
  ])('%s → 206 with exactly those bytes', async (range, start, end) => {
    const response = await get(downloadUrl, { range });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${original.length}`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect((await bytesOf(response)).equals(original.subarray(start, end + 1))).toBe(true);
  });

  it('416 with the size for a range outside the file; 200 in full for what it ignores', async () => {
    for (const range of [`bytes=${original.length}-`, 'bytes=500-100', 'bytes=-0']) {
      const response = await get(downloadUrl, { range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${original.length}`);
      expect((await errorOf(response)).code).toBe('range_not_satisfiable');
    }
    for (const range of ['bytes=0-1,5-6', 'lines=1-2', 'bytes=abc']) {
      const response = await get(downloadUrl, { range });
      expect(response.status, range).toBe(200);
      expect((await bytesOf(response)).length).toBe(original.length);
    }
  });

  it('If-Range with another validator sends the whole file instead of a range', async () => {
    const response = await get(downloadUrl, { range: 'bytes=0-9', 'if-range': '"not-this-file"' });
    expect(response.status).toBe(200);
    expect((await bytesOf(response)).length).toBe(original.length);
  });

  it('a dropped download resumes on a fresh link, and only the finished one counts as completed', async () => {
    const big = randomBytes(24 * 1024 * 1024);
    const { product } = await store.sellFile(big, 'film.mp4');
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const first = await store.link(purchase.paid.purchaseId, buyer);

    const head = await startAndDrop(`${baseUrl}${first.downloadUrl}`, 1024 * 1024);
    await settle();
    expect(completedFor(purchase.paid.purchaseId)).toHaveLength(0);

    const fresh = await store.link(purchase.paid.purchaseId, buyer);
    expect(fresh.downloadUrl).not.toBe(first.downloadUrl);
    const etag = (await get(fresh.downloadUrl, {}, 'HEAD')).headers.get('etag')!;
    const rest = await get(fresh.downloadUrl, { range: `bytes=${head.length}-`, 'if-range': etag });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(
      `bytes ${head.length}-${big.length - 1}/${big.length}`,
    );
    const resumed = Buffer.concat([head, await bytesOf(rest)]);
    expect(sha256(resumed)).toBe(sha256(big));

    await waitFor(async () => completedFor(purchase.paid.purchaseId).length > 0);
    await settle();
    expect(completedFor(purchase.paid.purchaseId).map((event) => event.data.bytesSent)).toEqual([
      big.length - head.length,
    ]);
  });

  it('downloads running at once, whole and in ranges of two files, each get exactly their bytes', async () => {
    // Delivery sends local files from read buffers it uses again once the socket took their
    // bytes (storage/file-sender.ts): a buffer reused too early would show as another file's bytes.
    const files = [randomBytes(5 * 1024 * 1024 + 3), randomBytes(4 * 1024 * 1024 + 11)];
    const links: string[] = [];
    for (const [index, bytes] of files.entries()) {
      const { product } = await store.sellFile(bytes, `album-${index}.zip`);
      const purchase = await store.buy(product);
      links.push(
        (await store.link(purchase.paid.purchaseId, await store.buyerAccount(purchase)))
          .downloadUrl,
      );
    }
    const asked = [
      { file: 0, range: null },
      { file: 1, range: null },
      { file: 0, range: [1024 * 1024 - 5, 3 * 1024 * 1024 + 7] },
      { file: 1, range: [17, 4 * 1024 * 1024 + 10] },
      { file: 0, range: null },
      { file: 1, range: [2 * 1024 * 1024, 2 * 1024 * 1024] },
      { file: 1, range: null },
      { file: 0, range: [0, 5 * 1024 * 1024 + 2] },
    ] as const;
    // A buyer who drops off mid-download, at the same time, takes nothing from the others.
    const dropped = startAndDrop(`${baseUrl}${links[0]}`, 1024 * 1024);
    const received = await Promise.all(
      asked.map(async ({ file, range }) => {
        const response = await get(
          links[file]!,
          range ? { range: `bytes=${range[0]}-${range[1]}` } : {},
        );
        return { status: response.status, bytes: await bytesOf(response) };
      }),
    );
    for (const [index, { file, range }] of asked.entries()) {
      const expected = range ? files[file]!.subarray(range[0], range[1] + 1) : files[file]!;
      expect(received[index]!.status).toBe(range ? 206 : 200);
      expect(sha256(received[index]!.bytes)).toBe(sha256(expected));
    }
    expect((await dropped).equals(files[0]!.subarray(0, (await dropped).length))).toBe(true);
  });

  it('a range short of the last byte is not a completed download', async () => {
    const before = completedFor(purchaseId).length;
    await bytesOf(await get(downloadUrl, { range: 'bytes=0-99' }));
    await settle();
    expect(completedFor(purchaseId)).toHaveLength(before);
  });
});

describe('completed downloads are recorded in groups', () => {
  /** Rows one statement wrote share the transaction id Postgres stamps on them (`xmin`). */
  const recorded = async (purchaseId: string) =>
    (
      await delivery.db.query<{ statement: string; bytesSent: number }>(
        `SELECT d.xmin::text AS statement, d.bytes_sent::int AS "bytesSent"
         FROM downloads d WHERE d.purchase_id = $1`,
        [purchaseId],
      )
    ).rows;

  it('a burst of downloads is written together, every one of them, each with its event', async () => {
    const original = randomBytes(8 * 1024);
    const { product } = await store.sellFile(original, 'burst.zip');
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const links = [];
    for (let index = 0; index < 6; index += 1)
      links.push((await store.link(purchase.paid.purchaseId, buyer)).downloadUrl);

    await Promise.all(links.map(async (link) => bytesOf(await get(link))));

    await waitFor(async () => (await recorded(purchase.paid.purchaseId)).length === 6);
    const rows = await recorded(purchase.paid.purchaseId);
    expect(rows.map((row) => row.bytesSent)).toEqual(Array(6).fill(original.length));
    // One statement per download would be six transactions.
    expect(new Set(rows.map((row) => row.statement)).size).toBeLessThan(6);
    await waitFor(async () => completedFor(purchase.paid.purchaseId).length === 6);
  });

  it('a download that completed just before its replica stopped is recorded by the time it has stopped', async () => {
    const original = randomBytes(8 * 1024);
    const { product } = await store.sellFile(original, 'last-one.zip');
    const purchase = await store.buy(product);
    const { downloadUrl } = await store.link(
      purchase.paid.purchaseId,
      await store.buyerAccount(purchase),
    );
    const replica = await delivery.replica();
    const replicaUrl = await replica.listen({ port: 0, host: '127.0.0.1' });

    const response = await fetch(`${replicaUrl}${downloadUrl}`);
    expect(sha256(await bytesOf(response))).toBe(sha256(original));
    await replica.close();

    expect(await recorded(purchase.paid.purchaseId)).toEqual([
      { statement: expect.any(String), bytesSent: original.length },
    ]);
  });
});

describe('links are signed, expire after an hour, and are re-checked against the entitlement', () => {
  it('a tampered or made-up token → 403 download_link_invalid', async () => {
    const { product } = await store.sellFile(randomBytes(1000));
    const purchase = await store.buy(product);
    const { downloadUrl } = await store.link(
      purchase.paid.purchaseId,
      await store.buyerAccount(purchase),
    );
    const token = downloadUrl.slice('/dl/'.length);
    const flip = (at: number) =>
      token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);

    // Grant id, expiry and signature each covered.
    const made = [
      flip(5),
      flip(20),
      flip(60),
      'not-a-token',
      randomBytes(53).toString('base64url'),
      `${token}A`,
      token.slice(0, -1),
    ];
    for (const forged of made) {
      const response = await get(`/dl/${forged}`);
      expect(response.status, forged).toBe(403);
      expect((await errorOf(response)).code).toBe('download_link_invalid');
    }
    expect((await get(downloadUrl)).status).toBe(200);
  });

  it('works for the hour, then → 403 download_link_expired', async () => {
    const { product } = await store.sellFile(randomBytes(1000));
    const purchase = await store.buy(product);
    const { downloadUrl } = await store.link(
      purchase.paid.purchaseId,
      await store.buyerAccount(purchase),
    );
    try {
      delivery.clock.offsetMs = 59 * 60 * 1000;
      expect((await get(downloadUrl)).status).toBe(200);
      delivery.clock.offsetMs = 60 * 60 * 1000 + 1000;
      const expired = await get(downloadUrl);
      expect(expired.status).toBe(403);
      expect(await errorOf(expired)).toMatchObject({ code: 'download_link_expired' });
    } finally {
      delivery.clock.offsetMs = 0;
    }
  });

  it('honours the stored grant: a grant cut short server-side stops its link before the token says so', async () => {
    const { product } = await store.sellFile(randomBytes(1000));
    const purchase = await store.buy(product);
    const { downloadUrl } = await store.link(
      purchase.paid.purchaseId,
      await store.buyerAccount(purchase),
    );
    expect((await get(downloadUrl)).status).toBe(200);
    await delivery.db.query(
      `UPDATE download_grants SET expires_at = now() - interval '1 second' WHERE purchase_id = $1`,
      [purchase.paid.purchaseId],
    );
    const cut = await get(downloadUrl);
    expect(cut.status).toBe(403);
    expect(await errorOf(cut)).toMatchObject({ code: 'download_link_expired' });
  });

  it('a refund stops a link issued before it, at once, and no new link is given', async () => {
    const { product } = await store.sellFile(randomBytes(1000));
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const { downloadUrl } = await store.link(purchase.paid.purchaseId, buyer);
    expect((await get(downloadUrl)).status).toBe(200);

    await store.refund(purchase);
    const redeemed = await get(downloadUrl);
    expect(redeemed.status).toBe(403);
    expect((await errorOf(redeemed)).code).toBe('purchase_refunded');
    expect((await get(downloadUrl, { range: 'bytes=0-9' }, 'HEAD')).status).toBe(403);
    const again = await store.requestLink(purchase.paid.purchaseId, buyer);
    expect(again.status).toBe(403);
    expect((await errorOf(again)).code).toBe('purchase_refunded');
  });

  it('a chargeback the seller wins gives the buyer their access back, whichever event lands first', async () => {
    const { product } = await store.sellFile(randomBytes(1000));
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const chargedBackAt = new Date(Date.now() - 60_000).toISOString();
    const reinstated = (at: string) =>
      testEvent('purchase.reinstated', {
        purchaseId: purchase.paid.purchaseId,
        productId: purchase.paid.productId,
        sellerId: purchase.paid.sellerId,
        buyerEmail: purchase.paid.buyerEmail,
        amountMinor: purchase.paid.amountMinor,
        currency: purchase.paid.currency,
        reinstatedAt: at,
        reason: 'dispute_won',
        disputeId: 'dispute-1',
        txRef: purchase.paid.txRef,
        fileId: purchase.paid.fileId,
      });
    const chargeback = testEvent(
      'purchase.refunded',
      purchaseRefundedData(purchase.paid, { refundedAt: chargedBackAt }),
    );
    await delivery.publish(chargeback);
    await store.entitlementWhere(purchase, 'revoked_at IS NOT NULL');
    expect((await store.requestLink(purchase.paid.purchaseId, buyer)).status).toBe(403);

    await delivery.publish(reinstated(new Date().toISOString()));
    await store.entitlementWhere(purchase, 'revoked_at IS NULL');
    const { downloadUrl } = await store.link(purchase.paid.purchaseId, buyer);
    expect((await get(downloadUrl)).status).toBe(200);

    // The chargeback delivered again late (redelivery after the reinstatement) revokes nothing.
    await delivery.publish({ ...chargeback, id: randomUUID() });
    // A later purchase's event through the same consumer is the watermark that it was handled.
    const later = await store.buy(product);
    await delivery.publish(refundedEvent(later));
    await store.entitlementWhere(later, 'revoked_at IS NOT NULL');
    expect((await get(downloadUrl)).status).toBe(200);
  });

  it('stops every link the moment payments holds the purchase for a refund, and a failed refund gives it back', async () => {
    const { product } = await store.sellFile(randomBytes(2000));
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const { downloadUrl } = await store.link(purchase.paid.purchaseId, buyer);
    const hold = (refundId: string) =>
      delivery.bus.request('access.suspend_for_refund', {
        purchaseId: purchase.paid.purchaseId,
        productId: purchase.paid.productId,
        sellerId: purchase.paid.sellerId,
        buyerEmail: purchase.paid.buyerEmail,
        refundId,
      });
    const refundFailed = (refundId: string) =>
      delivery.publish(
        createEvent(
          'purchase.refund_failed',
          {
            purchaseId: purchase.paid.purchaseId,
            productId: purchase.paid.productId,
            sellerId: purchase.paid.sellerId,
            buyerEmail: purchase.paid.buyerEmail,
            refundId,
            reason: 'the provider refused the refund',
          },
          { correlationId: 'test' },
        ),
      );

    const first = randomUUID();
    expect(await hold(first)).toEqual({ suspended: true });
    // No waiting for an event: the answer above means the hold is already in force.
    const held = await get(downloadUrl);
    expect(held.status).toBe(403);
    expect(await errorOf(held)).toMatchObject({ code: 'purchase_refunded' });
    expect((await store.requestLink(purchase.paid.purchaseId, buyer)).status).toBe(403);

    // A second attempt holds again; the first attempt's late failure must not lift it.
    const second = randomUUID();
    await hold(second);
    await refundFailed(first);
    await settle();
    expect((await get(downloadUrl)).status).toBe(403);
    await refundFailed(second);
    await waitFor(async () => (await get(downloadUrl)).status === 200);
  });

  it('gives one purchase at most 30 links an hour (429 with Retry-After), then again later', async () => {
    const { product } = await store.sellFile(randomBytes(100));
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const statuses = await Promise.all(
      Array.from({ length: 32 }, () => store.requestLink(purchase.paid.purchaseId, buyer)),
    );
    expect(statuses.filter((response) => response.status === 200)).toHaveLength(30);
    const limited = statuses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(2);
    expect((await errorOf(limited[0]!)).code).toBe('download_rate_limited');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(3000);
    try {
      delivery.clock.offsetMs = 61 * 60 * 1000;
      expect((await store.requestLink(purchase.paid.purchaseId, buyer)).status).toBe(200);
    } finally {
      delivery.clock.offsetMs = 0;
    }
  });
});

describe('a bought file outlives its product', () => {
  it('the seller cannot delete a file buyers paid for; the buyer still downloads it after the product is deleted', async () => {
    const original = randomBytes(2048);
    const { seller, file, product } = await store.sellFile(original);
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

    const removal = await fetch(`${baseUrl}/api/uploads/${file.id}`, {
      method: 'DELETE',
      headers: { authorization: seller.auth },
    });
    expect(removal.status).toBe(409);
    expect((await errorOf(removal)).code).toBe('file_in_use');
    const { downloadUrl } = await store.link(
      purchase.paid.purchaseId,
      await store.buyerAccount(purchase),
    );
    expect(sha256(await bytesOf(await get(downloadUrl)))).toBe(sha256(original));
  });
});

describe('retention', () => {
  it('drops links and receipt sessions that expired a month ago, keeping links that delivered a file', async () => {
    const original = randomBytes(4096);
    const { product } = await store.sellFile(original, 'old-notes.zip');
    const purchase = await store.buy(product);
    const buyer = await store.buyerAccount(purchase);
    const used = await store.link(purchase.paid.purchaseId, buyer);
    expect(sha256(await bytesOf(await get(used.downloadUrl)))).toBe(sha256(original));
    await store.link(purchase.paid.purchaseId, buyer);
    await waitFor(async () => {
      const { rows } = await delivery.db.query('SELECT 1 FROM downloads WHERE purchase_id = $1', [
        purchase.paid.purchaseId,
      ]);
      return rows.length === 1;
    });
    await delivery.db.query(
      `UPDATE download_grants SET expires_at = now() - interval '31 days' WHERE purchase_id = $1`,
      [purchase.paid.purchaseId],
    );
    await delivery.publish(
      createEvent(
        'retention.due',
        { dueAt: new Date().toISOString() },
        { correlationId: `test-${randomUUID()}` },
      ),
    );
    await waitFor(async () => {
      const { rows } = await delivery.db.query(
        'SELECT count(*)::int AS n FROM download_grants WHERE purchase_id = $1',
        [purchase.paid.purchaseId],
      );
      return rows[0].n === 1;
    });
    const { rows } = await delivery.db.query(
      'SELECT g.id FROM download_grants g JOIN downloads d ON d.grant_id = g.id WHERE g.purchase_id = $1',
      [purchase.paid.purchaseId],
    );
    expect(rows).toHaveLength(1);
  });
});

describe('access follows the subscription a purchase belongs to', () => {
  const snapshot = (
    subscriptionId: string,
    purchase: { paid: { productId: string; sellerId: string; buyerEmail: string } },
    changes: { status: 'active' | 'past_due' | 'expired'; accessUntil: Date; revision: number },
  ) => ({
    subscriptionId,
    kind: 'product' as const,
    productId: purchase.paid.productId,
    sellerId: purchase.paid.sellerId,
    userId: null,
    plan: null,
    buyerEmail: purchase.paid.buyerEmail,
    interval: 'monthly' as const,
    amountMinor: 100_000,
    currency: 'NGN',
    cancelAtPeriodEnd: changes.status !== 'active',
    currentPeriodEnd: changes.accessUntil.toISOString(),
    status: changes.status,
    accessUntil: changes.accessUntil.toISOString(),
    revision: changes.revision,
  });

  it('downloads while it grants access; expiry stops links already issued; a late older snapshot changes nothing', async () => {
    const { product } = await store.sellFile(randomBytes(1500));
    const subscriptionId = randomUUID();
    const inAMonth = new Date(Date.now() + 31 * 86_400_000);
    const purchase = await store.buy(product, {
      subscription: {
        subscriptionId,
        status: 'active',
        accessUntil: inAMonth.toISOString(),
        revision: 1,
      },
    });
    const buyer = await store.buyerAccount(purchase);
    const { downloadUrl } = await store.link(purchase.paid.purchaseId, buyer);
    expect((await get(downloadUrl)).status).toBe(200);

    // Cancelled at period end: still allowed until then.
    await delivery.publish(
      createEvent(
        'subscription.cancelled',
        snapshot(subscriptionId, purchase, {
          status: 'active',
          accessUntil: inAMonth,
          revision: 2,
        }),
        { correlationId: 'test' },
      ),
    );
    await settle();
    expect((await get(downloadUrl)).status).toBe(200);

    await delivery.publish(
      createEvent(
        'subscription.expired',
        snapshot(subscriptionId, purchase, {
          status: 'expired',
          accessUntil: new Date(),
          revision: 3,
        }),
        { correlationId: 'test' },
      ),
    );
    await waitFor(async () => (await get(downloadUrl)).status === 403);
    expect(await errorOf(await get(downloadUrl))).toMatchObject({ code: 'subscription_ended' });
    const refused = await store.requestLink(purchase.paid.purchaseId, buyer);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('subscription_ended');

    // The renewal event of revision 2 arriving after the expiry does not bring access back.
    await delivery.publish(
      createEvent(
        'subscription.renewed',
        snapshot(subscriptionId, purchase, {
          status: 'active',
          accessUntil: inAMonth,
          revision: 2,
        }),
        { correlationId: 'test' },
      ),
    );
    await settle();
    expect((await get(downloadUrl)).status).toBe(403);
  });

  it('holds every charge of the subscription while one of them is being refunded, and gives them back when that refund fails', async () => {
    const { product } = await store.sellFile(randomBytes(1200));
    const subscriptionId = randomUUID();
    const charge = (revision: number) => ({
      subscriptionId,
      status: 'active' as const,
      accessUntil: new Date(Date.now() + 31 * 86_400_000).toISOString(),
      revision,
    });
    const first = await store.buy(product, {
      buyerEmail: 'subscriber@example.com',
      subscription: charge(1),
    });
    const renewal = await store.buy(product, {
      buyerEmail: 'subscriber@example.com',
      subscription: charge(2),
    });
    const buyer = await store.buyerAccount(renewal);
    const { downloadUrl } = await store.link(renewal.paid.purchaseId, buyer);
    expect((await get(downloadUrl)).status).toBe(200);

    const refundId = randomUUID();
    await delivery.bus.request('access.suspend_for_refund', {
      purchaseId: first.paid.purchaseId,
      productId: first.paid.productId,
      sellerId: first.paid.sellerId,
      buyerEmail: first.paid.buyerEmail,
      refundId,
    });
    const held = await get(downloadUrl);
    expect(held.status).toBe(403);
    expect((await errorOf(held)).code).toBe('purchase_refunded');
    expect((await store.requestLink(renewal.paid.purchaseId, buyer)).status).toBe(403);
    expect(await (await store.access(product.productId, buyer)).json()).toEqual({
      hasAccess: false,
    });

    await delivery.publish(
      createEvent(
        'purchase.refund_failed',
        {
          purchaseId: first.paid.purchaseId,
          productId: first.paid.productId,
          sellerId: first.paid.sellerId,
          buyerEmail: first.paid.buyerEmail,
          refundId,
          reason: 'the provider refused the refund',
        },
        { correlationId: 'test' },
      ),
    );
    await waitFor(async () => (await get(downloadUrl)).status === 200);
    expect(await (await store.access(product.productId, buyer)).json()).toEqual({
      hasAccess: true,
      purchaseId: renewal.paid.purchaseId,
    });
  });

  it('access ends at accessUntil even before the expiry event arrives', async () => {
    const { product } = await store.sellFile(randomBytes(900));
    const purchase = await store.buy(product, {
      subscription: {
        subscriptionId: randomUUID(),
        status: 'past_due',
        accessUntil: new Date(Date.now() + 60 * 60_000).toISOString(),
        revision: 4,
      },
    });
    const buyer = await store.buyerAccount(purchase);
    const { downloadUrl } = await store.link(purchase.paid.purchaseId, buyer);
    expect((await get(downloadUrl)).status).toBe(200);
    try {
      delivery.clock.offsetMs = 61 * 60_000;
      // The link itself lives an hour too; both ran out — ask for a new one.
      expect((await store.requestLink(purchase.paid.purchaseId, buyer)).status).toBe(403);
    } finally {
      delivery.clock.offsetMs = 0;
    }
  });
});

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pdfPageTexts } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfDocument } from './support/fixtures.js';
import { startDelivery, waitFor, type DeliveryHarness } from './support/harness.js';
import { bytesOf, errorOf, sha256, shop, type TestPurchase } from './support/purchases.js';
import { signal, watchStampers } from './support/stampers.js';

/**
 * Stamping buyers' PDF copies cannot take delivery down: processes are bounded per replica with
 * a bounded queue, a request that would wait too long is told `copy_preparing` (503,
 * Retry-After) while its copy is still made, no transaction is open while a process runs, a
 * killed process is tried again (never "too large" for good), and stored copies are capped.
 * Stamping processes are counted and paused or killed through the operating system.
 */
interface Store {
  delivery: DeliveryHarness;
  baseUrl: string;
  shop: ReturnType<typeof shop>;
}

async function open(env: Record<string, string>): Promise<Store> {
  const delivery = await startDelivery(env);
  const baseUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
  return { delivery, baseUrl, shop: shop(delivery, baseUrl) };
}

/** `POST /api/downloads` for the purchase's PDF, by its buyer (their copy is made first). */
async function requestLink({ shop }: Store, purchase: TestPurchase, origin?: string) {
  const buyer = await shop.buyerAccount(purchase);
  if (!origin) return shop.requestLink(purchase.paid.purchaseId, buyer);
  return fetch(`${origin}/api/downloads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: buyer.auth! },
    body: JSON.stringify({ purchaseId: purchase.paid.purchaseId }),
  });
}

/** A buyer's download of the purchase's PDF: a fresh link, then `/dl` — or the link's refusal. */
async function download(store: Store, purchase: TestPurchase) {
  const linked = await requestLink(store, purchase);
  if (linked.status !== 200) return linked;
  const { downloadUrl } = (await linked.json()) as { downloadUrl: string };
  return fetch(`${store.baseUrl}${downloadUrl}`);
}

async function expectCopyPreparing(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  expect((await errorOf(response)).code).toBe('copy_preparing');
}

/** Links counted against the purchase's hourly budget. */
async function linksOf({ delivery }: Store, purchase: TestPurchase): Promise<number> {
  const { rows } = await delivery.db.query<{ links: number }>(
    'SELECT count(*)::int AS links FROM download_grants WHERE purchase_id = $1',
    [purchase.paid.purchaseId],
  );
  return rows[0]!.links;
}

/** A stamping product and `buyers` purchases of it, each buyer's first download still to come. */
async function stampedProduct(
  { shop }: Store,
  buyers: number,
  emailOf = (n: number) => `b${n}@example.com`,
) {
  const { file, product, seller } = await shop.sellFile(pdfDocument('Chapter one'), 'book.pdf', {
    stampPdfs: true,
  });
  const purchases: TestPurchase[] = [];
  for (let n = 0; n < buyers; n += 1)
    purchases.push(await shop.buy(product, { buyerEmail: emailOf(n) }));
  return { file, product, seller, purchases };
}

async function expectStampedFor(response: Response, email: string) {
  expect(response.status).toBe(200);
  const [page] = await pdfPageTexts(await bytesOf(response));
  expect(page).toContain(`Licensed to ${email}`);
}

describe('with STAMP_CONCURRENCY=2', () => {
  let store: Store;
  beforeAll(async () => {
    store = await open({ STAMP_CONCURRENCY: '2', STAMP_WAIT_SECONDS: '60' });
  });
  afterAll(() => store?.delivery.close());

  it('runs at most 2 stamping processes at once however many first downloads arrive', async () => {
    const { purchases } = await stampedProduct(store, 6);
    // Each process is held 300 ms, so processes that would overlap are seen overlapping.
    const watch = watchStampers((pid) => {
      signal(pid, 'SIGSTOP');
      setTimeout(() => signal(pid, 'SIGCONT'), 300);
    });
    try {
      const responses = await Promise.all(purchases.map((purchase) => download(store, purchase)));
      for (const [n, response] of responses.entries())
        await expectStampedFor(response, `b${n}@example.com`);
    } finally {
      await watch.stop();
    }
    expect(watch.seen).toHaveLength(6);
    expect(watch.mostAtOnce).toBe(2);
  }, 60_000);

  it('holds no transaction and no lock while a stamping process runs', async () => {
    const { purchases } = await stampedProduct(store, 1);
    const paused: number[] = [];
    const watch = watchStampers((pid) => {
      signal(pid, 'SIGSTOP');
      paused.push(pid);
    });
    try {
      const downloading = download(store, purchases[0]!);
      await waitFor(() => paused.length === 1);
      // The request is inside the stamp now, its process paused: nothing of delivery's may be
      // waiting in a transaction or holding an advisory lock on its behalf.
      const { rows: open } = await store.delivery.db.query(
        `SELECT state, query FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()
           AND state LIKE 'idle in transaction%'`,
      );
      expect(open).toEqual([]);
      const { rows: locks } = await store.delivery.db.query(
        `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
         WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
      );
      expect(locks).toEqual([]);
      signal(paused[0]!, 'SIGCONT');
      await expectStampedFor(await downloading, 'b0@example.com');
    } finally {
      await watch.stop();
      paused.forEach((pid) => signal(pid, 'SIGCONT'));
    }
  }, 60_000);

  it('tries a killed stamping process again: 503 copy_preparing first, then the stamped copy, never "too large"', async () => {
    const { file, purchases, seller } = await stampedProduct(store, 1);
    // As the kernel's OOM killer would: SIGKILL, no word from the process.
    const watch = watchStampers((pid) => {
      if (watch.seen.length === 1) signal(pid, 'SIGKILL');
    });
    try {
      const first = await download(store, purchases[0]!);
      expect(first.status).toBe(503);
      expect(first.headers.get('retry-after')).toBe('5');
      expect(await errorOf(first)).toEqual({
        code: 'copy_preparing',
        message: 'Preparing your copy… please try again in a few seconds',
        details: { retryAfterSeconds: 5 },
      });
      const { rows } = await store.delivery.db.query('SELECT pdf_stamp FROM files WHERE id = $1', [
        file.id,
      ]);
      expect(rows).toEqual([{ pdf_stamp: null }]);

      await expectStampedFor(await download(store, purchases[0]!), 'b0@example.com');
      expect(watch.seen).toHaveLength(2);
    } finally {
      await watch.stop();
    }
    const stamping = await fetch(`${store.baseUrl}/api/uploads/${file.id}/pdf-stamping`, {
      headers: { authorization: seller.auth },
    });
    expect(((await stamping.json()) as { status: string }).status).toBe('available');
  }, 60_000);
});

describe('two replicas', () => {
  let store: Store;
  beforeAll(async () => {
    store = await open({});
  });
  afterAll(() => store?.delivery.close());

  it('racing for one buyer’s first copy keep one copy, and each serves it', async () => {
    const { file, purchases } = await stampedProduct(store, 1);
    const replica = await store.delivery.replica();
    const replicaUrl = await replica.listen({ port: 0, host: '127.0.0.1' });
    // Both processes are held until both have started: each replica stamps its own copy.
    const paused: number[] = [];
    const watch = watchStampers((pid) => {
      signal(pid, 'SIGSTOP');
      paused.push(pid);
      if (paused.length === 2) paused.forEach((stopped) => signal(stopped, 'SIGCONT'));
    });
    let bodies: Buffer[];
    try {
      const links = await Promise.all(
        [store.baseUrl, replicaUrl].map((origin) => requestLink(store, purchases[0]!, origin)),
      );
      expect(links.map((link) => link.status)).toEqual([200, 200]);
      const responses = await Promise.all(
        links.map(async (link, index) => {
          const { downloadUrl } = (await link.json()) as { downloadUrl: string };
          return fetch(`${[store.baseUrl, replicaUrl][index]}${downloadUrl}`);
        }),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      bodies = await Promise.all(responses.map(bytesOf));
    } finally {
      await watch.stop();
      paused.forEach((pid) => signal(pid, 'SIGCONT'));
    }
    expect(paused).toHaveLength(2);
    expect(sha256(bodies[0]!)).toBe(sha256(bodies[1]!));
    const { rows } = await store.delivery.db.query<{ storage_key: string }>(
      'SELECT storage_key FROM stamped_copies WHERE file_id = $1',
      [file.id],
    );
    expect(rows).toHaveLength(1);
    const stored = (await store.delivery.storedFiles()).filter((stored) =>
      stored.includes(`${path.sep}stamped${path.sep}${file.id}${path.sep}`),
    );
    expect(stored).toEqual([path.join(store.delivery.dataDir, rows[0]!.storage_key)]);
  }, 60_000);
});

describe('with one stamping process, one waiting and a three-second wait', () => {
  let store: Store;
  beforeAll(async () => {
    store = await open({
      STAMP_CONCURRENCY: '1',
      STAMP_QUEUE_LIMIT: '1',
      STAMP_WAIT_SECONDS: '3',
    });
  });
  afterAll(() => store?.delivery.close());

  /** An answer and how long it took. */
  async function timed(answer: () => Promise<Response>) {
    const startedAt = Date.now();
    const response = await answer();
    return { response, ms: Date.now() - startedAt };
  }

  it('answers copy_preparing with Retry-After after the wait, at once when the queue is full, counts no link, and makes the copies meanwhile', async () => {
    const { purchases } = await stampedProduct(store, 3);
    const [first, second, third] = purchases as [TestPurchase, TestPurchase, TestPurchase];
    const paused: number[] = [];
    const watch = watchStampers((pid) => {
      if (paused.length > 0) return;
      signal(pid, 'SIGSTOP');
      paused.push(pid);
    });
    try {
      const running = timed(() => requestLink(store, first));
      await waitFor(() => paused.length === 1);
      // The slot is taken: of the next two, one takes the only place in the queue and waits
      // its three seconds, the other is answered at once.
      const answers = await Promise.all([
        timed(() => requestLink(store, second)),
        timed(() => requestLink(store, third)),
      ]);
      const [refused, waited] = answers.sort((a, b) => a.ms - b.ms);
      expect(refused!.ms).toBeLessThan(1500);
      expect(waited!.ms).toBeGreaterThanOrEqual(2900);
      expect((await running).ms).toBeGreaterThanOrEqual(2900);
      for (const { response } of [await running, waited!, refused!])
        await expectCopyPreparing(response);
      // Nor is a ZIP link given while its copies are not ready.
      await expectCopyPreparing(
        await store.shop.requestZipLink(
          third.paid.purchaseId,
          await store.shop.buyerAccount(third),
        ),
      );
      // Asking again costs the buyer nothing: no link was counted.
      for (const purchase of purchases) expect(await linksOf(store, purchase)).toBe(0);

      signal(paused[0]!, 'SIGCONT');
      // The copies asked for went on being made; a buyer who comes back gets theirs.
      for (const [n, purchase] of purchases.entries())
        await waitFor(async () => {
          const response = await download(store, purchase);
          if (response.status === 503) return false;
          await expectStampedFor(response, `b${n}@example.com`);
          return true;
        });
    } finally {
      await watch.stop();
      paused.forEach((pid) => signal(pid, 'SIGCONT'));
    }
  }, 60_000);

  it('answers a link given before the seller turned stamping on with copy_preparing until the copy is made', async () => {
    const { product, purchases } = await stampedProduct(store, 1);
    await store.delivery.publishProduct('product.updated', { ...product, stampPdfs: false });
    await waitFor(async () => {
      const { rows } = await store.delivery.db.query(
        'SELECT 1 FROM products WHERE product_id = $1 AND NOT stamp_pdfs',
        [product.productId],
      );
      return rows.length === 1;
    });
    const linked = await requestLink(store, purchases[0]!);
    const { downloadUrl } = (await linked.json()) as { downloadUrl: string };
    await store.delivery.publishProduct('product.updated', { ...product, stampPdfs: true });
    await waitFor(async () => {
      const { rows } = await store.delivery.db.query(
        'SELECT 1 FROM products WHERE product_id = $1 AND stamp_pdfs',
        [product.productId],
      );
      return rows.length === 1;
    });

    const paused: number[] = [];
    const watch = watchStampers((pid) => {
      signal(pid, 'SIGSTOP');
      paused.push(pid);
    });
    try {
      await expectCopyPreparing(await fetch(`${store.baseUrl}${downloadUrl}`));
      expect(paused).toHaveLength(1);
      signal(paused[0]!, 'SIGCONT');
      await waitFor(async () => {
        const response = await fetch(`${store.baseUrl}${downloadUrl}`);
        if (response.status === 503) return false;
        await expectStampedFor(response, 'b0@example.com');
        return true;
      });
    } finally {
      await watch.stop();
      paused.forEach((pid) => signal(pid, 'SIGCONT'));
    }
  }, 60_000);
});

describe('with STAMPED_COPIES_MAX_BYTES set', () => {
  it('keeps the stored copies within the cap, evicting the least recently used, which is made again when asked for', async () => {
    // The size of one copy, for e-mails of one length, learned from a first store.
    const probe = await open({});
    let copyBytes: number;
    try {
      const { purchases } = await stampedProduct(probe, 1);
      copyBytes = (await bytesOf(await download(probe, purchases[0]!))).length;
    } finally {
      await probe.delivery.close();
    }

    const capBytes = Math.floor(copyBytes * 2.5);
    const store = await open({ STAMPED_COPIES_MAX_BYTES: String(capBytes) });
    try {
      const { file, purchases } = await stampedProduct(store, 3);
      const copies = async () =>
        (
          await store.delivery.db.query<{
            buyer_email: string;
            storage_key: string;
            size_bytes: string;
          }>(
            'SELECT buyer_email, storage_key, size_bytes FROM stamped_copies WHERE file_id = $1 ORDER BY buyer_email',
            [file.id],
          )
        ).rows;
      await expectStampedFor(await download(store, purchases[0]!), 'b0@example.com');
      const evictedKey = (await copies())[0]!.storage_key;
      await expectStampedFor(await download(store, purchases[1]!), 'b1@example.com');
      await expectStampedFor(await download(store, purchases[2]!), 'b2@example.com');

      const kept = await copies();
      expect(kept.map((copy) => copy.buyer_email)).toEqual(['b1@example.com', 'b2@example.com']);
      expect(kept.reduce((sum, copy) => sum + Number(copy.size_bytes), 0)).toBeLessThanOrEqual(
        capBytes,
      );
      expect(existsSync(path.join(store.delivery.dataDir, evictedKey))).toBe(false);

      // The evicted buyer still gets their own copy: made again, and the oldest other one goes.
      await expectStampedFor(await download(store, purchases[0]!), 'b0@example.com');
      expect((await copies()).map((copy) => copy.buyer_email)).toEqual([
        'b0@example.com',
        'b2@example.com',
      ]);
    } finally {
      await store.delivery.close();
    }
  }, 60_000);
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfDocument, waitFor } from '@lockdrop/testing';
import { REPLICAS, SERVICES, startCluster, type Cluster } from './support/cluster';
import { expectInvariants } from './support/invariants';
import { requestsServed } from './support/metrics';
import {
  multipart,
  openCheckouts,
  openShop,
  persistently,
  providerCharges,
  webhookStorm,
  type Browser,
  type Shop,
} from './support/shop';

/**
 * Two replicas of every service against one Postgres, NATS, Redis and S3 server, traffic spread
 * across both, then each replica killed with SIGKILL in the middle of the work.
 */
let cluster: Cluster;
let shop: Shop;
const allTxRefs: string[] = [];

beforeAll(async () => {
  cluster = await startCluster();
  shop = await openShop(cluster, 'replicas');
});
afterAll(async () => {
  await cluster?.stop();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Checkouts opened and paid, and their webhooks (with duplicates) delivered until accepted;
 * `meanwhile` runs as soon as the first is accepted, while the rest are on their way.
 */
async function sales(
  count: number,
  { bases, meanwhile }: { bases?: string[]; meanwhile?: () => Promise<void> } = {},
) {
  const { txRefs, buyers } = await openCheckouts(cluster, shop.productId, count);
  allTxRefs.push(...txRefs);
  const bodies = await providerCharges(cluster, txRefs);
  const storm = await webhookStorm(cluster, bodies, {
    bases,
    inFlight: meanwhile ? 4 : 10,
    onFirstAccepted: meanwhile,
  });
  return { txRefs, buyers, storm };
}

async function downloadUrl(buyer: Browser, txRef: string): Promise<string> {
  const { rows } = await cluster.db.query('SELECT id FROM payments.purchases WHERE tx_ref = $1', [
    txRef,
  ]);
  const purchaseId = rows[0].id as string;
  const link = await waitFor(
    () =>
      buyer
        .json<{ downloadUrl: string }>('/api/downloads', { purchaseId })
        .catch(() => null as null),
    30_000,
    'a download link',
  );
  return new URL(link.downloadUrl, cluster.baseUrl).toString();
}

describe('two replicas of every service', () => {
  it('share checkouts and webhooks, with every effect exactly once', async () => {
    const { txRefs, storm } = await sales(60, {
      bases: [cluster.replicaUrl('gateway', 'a'), cluster.replicaUrl('gateway', 'b')],
    });
    expect(storm.retried).toBe(0);
    const invariants = await expectInvariants(cluster, { txRefs, label: 'two replicas' });
    expect(invariants.purchases).toBe(60);
    for (const replica of REPLICAS) {
      expect(
        await requestsServed(cluster, 'gateway', replica, '/api/webhooks/:provider'),
      ).toBeGreaterThan(0);
      expect(
        await requestsServed(cluster, 'payments', replica, '/api/webhooks/:provider'),
      ).toBeGreaterThan(0);
      expect(await requestsServed(cluster, 'payments', replica, '/api/checkout')).toBeGreaterThan(
        0,
      );
    }
  });

  it('renders a preview once, however many delivery replicas could take it', async () => {
    const upload = multipart('chapter-one.pdf', pdfDocument(), 'application/pdf');
    const uploaded = await shop.seller.request('/api/uploads', {
      method: 'POST',
      headers: { 'content-type': upload.contentType },
      body: upload.body,
    });
    expect(uploaded.status).toBe(201);
    const { id: fileId } = (await uploaded.json()) as { id: string };
    const product = await shop.seller.json<{ id: string }>('/api/products', {
      title: 'Chapter one, previewed',
      description: 'The first chapter, blurred until bought.',
      price: '2000.00',
      currency: 'NGN',
      fileId,
      previewEnabled: true,
    });
    const preview = await waitFor(
      async () => {
        const { rows } = await cluster.db.query(
          'SELECT status, attempts FROM delivery.previews WHERE product_id = $1',
          [product.id],
        );
        return rows[0]?.status === 'ready' ? rows[0] : null;
      },
      60_000,
      'the preview to be rendered',
    );
    expect(preview.attempts).toBe(1);
  });

  it('loses and duplicates nothing when each replica in turn is killed mid-storm', async () => {
    let retried = 0;
    for (const service of SERVICES) {
      for (const replica of REPLICAS) {
        const { storm } = await sales(20, {
          meanwhile: () => cluster.killReplica(service, replica),
        });
        retried += storm.retried;
      }
    }
    console.log(`14 kills: ${retried} webhook deliveries failed and were sent again`);
    await expectInvariants(cluster, { txRefs: allTxRefs, label: '14 kill -9s mid-storm' });
  });

  it('recovers when both replicas of payments die at once', async () => {
    const { storm } = await sales(40, {
      meanwhile: async () => {
        // Both at once, without waiting for their return: the storm meets payments down.
        await Promise.all(
          REPLICAS.map((replica) => cluster.killReplica('payments', replica, { wait: false })),
        );
      },
    });
    // The gateway answered 502/503 while payments was down; the provider sent those again.
    expect(storm.retried).toBeGreaterThan(0);
    await cluster.allReady();
    await expectInvariants(cluster, { txRefs: allTxRefs, label: 'payments fully down' });
  });

  it('resumes a download with Range after delivery dies, re-checking the entitlement', async () => {
    const { txRefs, buyers } = await sales(1);
    const [txRef] = txRefs as [string];
    const url = await downloadUrl(buyers.get(txRef)!, txRef);
    const half = shop.fileBytes.length / 2;
    const first = await fetch(url, { headers: { range: `bytes=0-${half - 1}` } });
    expect(first.status).toBe(206);
    const head = Buffer.from(await first.arrayBuffer());
    await Promise.all(REPLICAS.map((replica) => cluster.killReplica('delivery', replica)));
    const rest = await persistently(async () => {
      const response = await fetch(url, { headers: { range: `bytes=${half}-` } });
      if (response.status >= 500) throw new Error(`GET: ${response.status} `);
      return response;
    });
    expect(rest.status).toBe(206);
    const tail = Buffer.from(await rest.arrayBuffer());
    expect(sha256(Buffer.concat([head, tail]))).toBe(sha256(shop.fileBytes));
  });

  it('leaves nothing behind from an upload cut off by a kill', async () => {
    const objectsBefore = (await cluster.s3.objectKeys()).sort();
    const { rows: filesBefore } = await cluster.db.query(
      'SELECT count(*)::int AS n FROM delivery.files',
    );
    const cookie = [...shop.seller.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const upload = multipart('cut-off.zip', Buffer.alloc(16 * 1024 * 1024, 7));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= upload.body.length) return controller.close();
        const chunk = upload.body.subarray(sent, sent + 256 * 1024);
        sent += chunk.length;
        controller.enqueue(chunk);
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
    const uploading = fetch(`${cluster.replicaUrl('delivery', 'a')}/api/uploads`, {
      method: 'POST',
      headers: { 'content-type': upload.contentType, cookie },
      body,
      duplex: 'half',
    } as RequestInit).then(
      (response) => response.status,
      () => 'cut off',
    );
    await waitFor(() => sent > 4 * 1024 * 1024, 20_000, 'part of the upload sent');
    await cluster.killReplica('delivery', 'a');
    expect(await uploading).toBe('cut off');
    expect((await cluster.s3.objectKeys()).sort()).toEqual(objectsBefore);
    const { rows: filesAfter } = await cluster.db.query(
      'SELECT count(*)::int AS n FROM delivery.files',
    );
    expect(filesAfter[0].n).toBe(filesBefore[0].n);
  });

  it('pays a seller out exactly once when the workers die during the payout', async () => {
    // A day passes: the sales so far are past the refund window and can be paid out.
    await cluster.db.query(
      `UPDATE payments.purchases SET paid_at = paid_at - interval '25 hours' WHERE seller_id = $1`,
      [shop.sellerId],
    );
    const { payouts } = await persistently(() =>
      shop.seller.json<{ payouts: { id: string }[] }>('/api/payouts/withdraw', {}),
    );
    expect(payouts).toHaveLength(1);
    await Promise.all(REPLICAS.map((replica) => cluster.killReplica('worker', replica)));
    await waitFor(
      async () => {
        const { rows } = await cluster.db.query(
          'SELECT status FROM payments.payouts WHERE id = $1',
          [payouts[0]!.id],
        );
        return rows[0].status === 'paid';
      },
      120_000,
      'the payout to be paid',
    );
    const { rows: transfers } = await cluster.db.query(
      'SELECT count(*)::int AS n FROM worker.sandbox_transfers',
    );
    expect(transfers[0].n).toBe(1);
    const invariants = await expectInvariants(cluster, {
      txRefs: allTxRefs,
      label: 'a payout run with its workers killed',
    });
    expect(invariants.payouts).toBe(1);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { eventSubject, streamNames } from '@lockdrop/bus';
import { createEvent, type DomainEvent } from '@lockdrop/contracts';
import { testEnv, waitFor } from '@lockdrop/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantEntitlements } from '../src/db/entitlements.repo.js';
import { startDelivery, type DeliveryHarness } from './support/harness.js';
import { makePurchase, paidEvent, shop } from './support/purchases.js';

let delivery: DeliveryHarness;
let baseUrl: string;
let rawNats: NatsConnection;

beforeAll(async () => {
  delivery = await startDelivery();
  baseUrl = await delivery.app.listen({ port: 0, host: '127.0.0.1' });
  rawNats = await connect({ servers: testEnv.natsUrl });
});
afterAll(async () => {
  await rawNats?.close();
  await delivery?.close();
});

/** The same message again under a fresh Nats-Msg-Id: JetStream cannot drop it, the consumer gets it twice. */
const redeliver = (event: DomainEvent) =>
  jetstream(rawNats).publish(
    eventSubject(delivery.bus.namespace, event.type),
    JSON.stringify(event),
  );

it('a flash sale with duplicates and redeliveries in its batches grants exactly one usable entitlement per purchase', async () => {
  const store = shop(delivery, baseUrl);
  const { product } = await store.sellFile(randomBytes(2048), 'sale.zip');
  const purchases = Array.from({ length: 60 }, () =>
    makePurchase({
      productId: product.productId,
      sellerId: product.ownerId,
      fileId: product.fileId,
      buyerEmail: `Buyer-${randomBytes(4).toString('hex')}@Example.com`,
    }),
  );
  const events = purchases.map(paidEvent);
  // A second event about the same payment (another id: a settler that ran twice), and copies
  // of the same event (a relay retry after the duplicate window), inside the burst.
  const secondWord = purchases
    .filter((_, index) => index % 7 === 0)
    .map(({ paid }) => createEvent('purchase.paid', paid, { correlationId: 'test-second' }));
  await Promise.all([
    ...events.map((event) => delivery.publish(event)),
    ...secondWord.map((event) => delivery.publish(event)),
    ...events.filter((_, index) => index % 5 === 0).map(redeliver),
  ]);
  const eventIds = [...events, ...secondWord].map((event) => event.id);
  await waitFor(
    async () =>
      (
        await delivery.db.query(
          `SELECT 1 FROM processed_events WHERE consumer = 'delivery.purchases-paid' AND event_id = ANY($1)`,
          [eventIds],
        )
      ).rowCount === eventIds.length,
  );
  // Let the redelivered copies reach the consumer too before counting.
  const jsm = await jetstreamManager(rawNats);
  await waitFor(async () => {
    const info = await jsm.consumers.info(
      streamNames(delivery.bus.namespace).events,
      'delivery_purchases-paid',
    );
    return info.num_ack_pending === 0 && info.num_pending === 0;
  });

  const { rows } = await delivery.db.query<{
    purchase_id: string;
    n: number;
    emails: string[];
    paid: boolean;
    txs: number;
  }>(
    `SELECT purchase_id, count(*)::int AS n, array_agg(buyer_email) AS emails, bool_and(paid_at IS NOT NULL) AS paid
     FROM entitlements WHERE purchase_id = ANY($1) GROUP BY purchase_id`,
    [purchases.map(({ paid }) => paid.purchaseId)],
  );
  expect(rows).toHaveLength(purchases.length);
  expect(rows.every((row) => row.n === 1 && row.paid)).toBe(true);
  expect(rows.every((row) => row.emails[0] === row.emails[0]!.toLowerCase())).toBe(true);
  // The burst was applied many purchases per transaction, not one each.
  const { rows: txs } = await delivery.db.query<{ n: number }>(
    `SELECT count(DISTINCT xmin::text)::int AS n FROM entitlements WHERE purchase_id = ANY($1)`,
    [purchases.map(({ paid }) => paid.purchaseId)],
  );
  expect(txs[0]!.n).toBeLessThan(purchases.length / 2);

  const buyer = await store.buyerAccount(purchases[13]!);
  expect((await store.requestLink(purchases[13]!.paid.purchaseId, buyer)).status).toBe(200);
});

it('merges two words about one purchase in one batch, the first known value of each column winning', async () => {
  const first = makePurchase({ productId: randomUUID(), sellerId: randomUUID(), fileId: null });
  const second = { ...first.paid, fileId: randomUUID(), productTitle: 'Renamed later' };
  await grantEntitlements(delivery.db, [{ ...first.paid, fileName: null }, second]);
  const { rows } = await delivery.db.query<{
    file_id: string;
    file_name: string;
    product_title: string;
  }>('SELECT file_id, file_name, product_title FROM entitlements WHERE purchase_id = $1', [
    first.paid.purchaseId,
  ]);
  expect(rows).toEqual([
    {
      file_id: second.fileId,
      file_name: first.paid.fileName,
      product_title: first.paid.productTitle,
    },
  ]);
});

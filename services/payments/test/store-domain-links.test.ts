import { randomUUID } from 'node:crypto';
import {
  createEvent,
  STORE_ORIGIN_HEADER,
  STORE_SELLER_HEADER,
  type EventData,
} from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, startHarness, waitFor, type Harness } from './support.js';

/**
 * Issue 28: a buyer who checked out on the seller's custom domain gets e-mails whose links lead
 * back there — while the domain serves the store. Payments learns the domain's state from
 * catalog's `store.domain_updated`; the gateway names the origin a checkout started on.
 */
const PUBLIC_URL = 'http://lockdrop.test';
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL });
});
afterAll(() => harness?.close());

type DomainStatus = EventData<'store.domain_updated'>['status'];

/** A Business store `sellerId` with a verified domain, and a way to announce its new state. */
async function storeWithDomainOf(sellerId: string) {
  const host = `shop-${randomUUID().slice(0, 8)}.example.com`;
  await harness.publish(
    createEvent(
      'plan.changed',
      { userId: sellerId, plan: 'business', previousPlan: 'free' },
      { correlationId: randomUUID() },
    ),
  );
  const announce = async (status: DomainStatus) => {
    await harness.publish(
      createEvent(
        'store.domain_updated',
        { sellerId, host, status },
        { correlationId: randomUUID() },
      ),
    );
    await waitFor(async () => {
      const { rows } = await harness.pool.query(
        `SELECT 1 FROM seller_domains d JOIN sellers s ON s.user_id = d.seller_id
          WHERE d.seller_id = $1 AND d.status = $2 AND s.plan = 'business'`,
        [sellerId, status],
      );
      return rows.length === 1;
    });
  };
  await announce('verified');
  return { sellerId, origin: `https://${host}`, announce };
}

/** A published product of a store with a verified domain. */
async function storeWithDomain() {
  const product = await harness.publishProduct();
  return { product, ...(await storeWithDomainOf(product.ownerId)) };
}

/** Every e-mail queued for `recipient`, in the outbox or already in the development mailbox. */
const mailsTo = async (recipient: string) => {
  const { rows } = await harness.pool.query<{ subject: string; text_body: string }>(
    `SELECT subject, text_body FROM (
       SELECT message->>'subject' AS subject, message->>'text' AS text_body, created_at AS at
         FROM mail_outbox WHERE message->>'to' = $1
       UNION
       SELECT subject, text_body, created_at FROM mailbox.messages WHERE recipient = $1
     ) mails ORDER BY at`,
    [recipient],
  );
  return rows;
};

/** Checks out (on the domain when `on` names its origin and seller, as the gateway does). */
async function checkout(
  productId: string,
  on: { origin: string; sellerId: string } | null,
  body: Record<string, unknown> = {},
) {
  const buyerEmail = `buyer-${randomUUID()}@example.com`;
  const buyer = browser(harness.url);
  const headers: Record<string, string> = on
    ? { [STORE_ORIGIN_HEADER]: on.origin, [STORE_SELLER_HEADER]: on.sellerId }
    : {};
  const started = await buyer.postJson(
    '/api/checkout',
    { productId, buyerEmail, ...body },
    headers,
  );
  expect(started.status).toBe(200);
  return { buyer, buyerEmail, ...(await started.json()) } as {
    buyer: ReturnType<typeof browser>;
    buyerEmail: string;
    txRef: string;
    link: string | null;
  };
}

/** Pays a checkout in the sandbox and answers the receipt e-mail's receipt link. */
async function receiptLinkOf(started: Awaited<ReturnType<typeof checkout>>) {
  await started.buyer.submitForm(`/sandbox/checkout/${started.txRef}/pay`);
  const receipt = await waitFor(async () =>
    (await mailsTo(started.buyerEmail)).find((mail) => mail.subject.includes('Your receipt')),
  );
  return /Download your file: (\S+)/.exec(receipt.text_body)?.[1];
}

describe('buyer e-mails of a checkout on a custom domain', () => {
  it('link the receipt to the domain the checkout started on; on Lockdrop, to Lockdrop', async () => {
    const store = await storeWithDomain();
    const onDomain = await checkout(store.product.productId, store);
    expect(await receiptLinkOf(onDomain)).toMatch(
      new RegExp(`^${store.origin.replaceAll('.', '\\.')}/receipt/[A-Za-z0-9_-]+$`),
    );

    const onOurs = await checkout(store.product.productId, null);
    expect(await receiptLinkOf(onOurs)).toMatch(new RegExp(`^${PUBLIC_URL}/receipt/`));

    // Another store's domain is no way back for this product: the gateway's claim is checked.
    const other = await storeWithDomain();
    const elsewhere = await checkout(store.product.productId, other);
    expect(await receiptLinkOf(elsewhere)).toMatch(new RegExp(`^${PUBLIC_URL}/receipt/`));
  });

  it('link to Lockdrop once the domain is paused, even for a checkout started on it', async () => {
    const store = await storeWithDomain();
    const started = await checkout(store.product.productId, store);
    // Paused between the checkout and the payment: a link to the domain would be dead.
    await store.announce('paused');
    expect(await receiptLinkOf(started)).toMatch(new RegExp(`^${PUBLIC_URL}/receipt/`));

    await store.announce('verified');
    const again = await checkout(store.product.productId, store);
    expect(await receiptLinkOf(again)).toMatch(new RegExp(`^${store.origin}/receipt/`));
  });

  it('link a free claim’s confirmation and its receipt to the domain it was claimed on', async () => {
    const product = await harness.publishProduct({ priceMinor: 1_000, minimumPriceMinor: 0 });
    const store = await storeWithDomainOf(product.ownerId);
    const claimed = await checkout(product.productId, store, { amount: '0' });
    expect(claimed.link).toBeNull();
    const confirmation = await waitFor(async () =>
      (await mailsTo(claimed.buyerEmail)).find((mail) => mail.subject.startsWith('Confirm')),
    );
    const confirmUrl = /Confirm and get your file: (\S+)/.exec(confirmation.text_body)?.[1];
    expect(confirmUrl).toMatch(new RegExp(`^${store.origin}/api/checkout/claims/confirm\\?token=`));
    // Opened on the domain (the gateway says so): the buyer lands on the receipt there.
    const opened = await fetch(
      `${harness.url}${new URL(confirmUrl!).pathname}${new URL(confirmUrl!).search}`,
      {
        redirect: 'manual',
        headers: { [STORE_ORIGIN_HEADER]: store.origin, [STORE_SELLER_HEADER]: store.sellerId },
      },
    );
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toMatch(new RegExp(`^${store.origin}/receipt/`));
    const receipt = await waitFor(async () =>
      (await mailsTo(claimed.buyerEmail)).find((mail) => mail.subject.includes('Your receipt')),
    );
    expect(receipt.text_body).toContain(`Download your file: ${store.origin}/receipt/`);
  });
});

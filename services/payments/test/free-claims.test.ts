import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@lockdrop/auth';
import { createEvent, type DomainEvent, type EventData } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, buy, startHarness, waitFor, type Harness } from './support.js';

/**
 * Issue 30 item 10, free claims are not an e-mail relay: a claim that costs nothing by an
 * address that has not proven itself sends one confirmation e-mail and nothing else until its
 * link is opened; free claims are limited per product, seller and address; "Tell my buyers"
 * mails confirmed buyers only.
 */
let harness: Harness;

const LIMITS = { product: 3, seller: 5, email: 3 };

beforeAll(async () => {
  harness = await startHarness({
    PUBLIC_URL: 'http://shop.test',
    CHECKOUT_EMAIL_LIMIT: '50',
    BULK_MAILS_PER_MINUTE: '600',
    FREE_CLAIM_CONFIRM_MINUTES: '60',
    FREE_CLAIM_MAIL_COOLDOWN_SECONDS: '600',
    FREE_CLAIMS_PER_PRODUCT_PER_HOUR: String(LIMITS.product),
    FREE_CLAIMS_PER_SELLER_PER_HOUR: String(LIMITS.seller),
    FREE_CLAIMS_PER_EMAIL_PER_HOUR: String(LIMITS.email),
  });
});
afterAll(() => harness?.close());

const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/** A product anyone may take for nothing (pay what you want from 0). */
const freeProduct = (overrides: Partial<EventData<'product.published'>> = {}) =>
  harness.publishProduct({
    title: `Free zine ${randomUUID().slice(0, 6)}`,
    priceMinor: 1_000,
    minimumPriceMinor: 0,
    ...overrides,
  });

async function claim(
  productId: string,
  buyerEmail: string,
  {
    buyer = browser(harness.url),
    token,
  }: { buyer?: ReturnType<typeof browser>; token?: string } = {},
) {
  const response = await buyer.postJson(
    '/api/checkout',
    { productId, buyerEmail, amount: '0' },
    token ? { authorization: `Bearer ${token}` } : {},
  );
  return { buyer, response, body: await response.json() };
}

/**
 * Every e-mail queued for `recipient`: still in the outbox or already delivered to the
 * development mailbox (the relay moves each from one to the other; a union never misses one).
 */
async function mailsTo(recipient: string): Promise<{ subject: string; text: string }[]> {
  const { rows } = await harness.pool.query<{ subject: string; text: string }>(
    `SELECT subject, text FROM (
       SELECT message->>'subject' AS subject, message->>'text' AS text, created_at AS at
         FROM mail_outbox WHERE lower(message->>'to') = lower($1)
       UNION
       SELECT subject, text_body, created_at FROM mailbox.messages WHERE lower(recipient) = lower($1)
     ) mails ORDER BY at`,
    [recipient],
  );
  // The same message seen in both places (mid-relay) counts once.
  return [...new Map(rows.map((row) => [row.text, row])).values()];
}

const confirmationMails = async (recipient: string) =>
  (await mailsTo(recipient)).filter((mail) => mail.subject.startsWith('Confirm your e-mail'));
const receiptMails = async (recipient: string) =>
  (await mailsTo(recipient)).filter((mail) => mail.subject.includes('Your receipt for'));

const linkOf = (mail: { text: string }) =>
  /(http:\/\/shop\.test\/api\/checkout\/claims\/confirm\?token=[A-Za-z0-9_-]+)/.exec(
    mail.text,
  )![1]!;
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** Opens a confirmation link as the mail app would (GET), without following the redirect. */
async function open(link: string) {
  const response = await fetch(link.replace('http://shop.test', harness.url), {
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location') ?? '' };
}

const postConfirm = async (token: string) => {
  const response = await browser(harness.url).postJson('/api/checkout/claims/confirm', { token });
  return { status: response.status, body: await response.json() };
};

async function purchasesOf(txRef: string) {
  const { rows } = await harness.pool.query(
    'SELECT id, status, provider, amount_minor, receipt_token_hash FROM purchases WHERE tx_ref = $1',
    [txRef],
  );
  return rows;
}

const paidEventOf = (txRef: string) =>
  harness.published.filter((event) => event.type === 'purchase.paid' && event.data.txRef === txRef);

/**
 * A watermark: a later free claim by a proven address, whose purchase.paid the test observer
 * (the same consumer that would have seen one for an earlier claim) has processed.
 */
async function laterSaleSeen() {
  const product = await freeProduct();
  const buyerEmail = email('watermark');
  const issuer = await harness.token({ id: randomUUID(), email: buyerEmail, emailVerified: true });
  const { body } = await claim(product.productId, buyerEmail, { token: issuer });
  await waitFor(() => paidEventOf(body.txRef).length === 1);
}

describe('a free claim by an address that has not proven itself', () => {
  it('sends one confirmation e-mail and nothing else; the link makes the purchase once and lands on its receipt', async () => {
    const product = await freeProduct({ fileName: 'zine-secret-file.pdf' });
    const buyerEmail = email('stranger');

    const started = await claim(product.productId, buyerEmail);
    expect(started.response.status).toBe(200);
    expect(started.body).toEqual({ link: null, txRef: expect.any(String), confirmEmail: true });
    const { txRef } = started.body;

    const [confirmation, ...others] = await mailsTo(buyerEmail);
    expect(others).toEqual([]);
    expect(confirmation!.subject).toBe(`Confirm your e-mail to get ${product.title}`);
    // Nothing the seller wrote but the title, no file and no receipt.
    expect(confirmation!.text).not.toContain('zine-secret-file');
    expect(confirmation!.text).not.toContain(product.description ?? '\u0000');
    expect(confirmation!.text).not.toContain('/receipt/');

    await laterSaleSeen();
    expect(paidEventOf(txRef)).toEqual([]);
    expect(await purchasesOf(txRef)).toEqual([]);
    const { rows: checkout } = await harness.pool.query(
      'SELECT status FROM checkouts WHERE tx_ref = $1',
      [txRef],
    );
    expect(checkout).toEqual([{ status: 'awaiting_email' }]);
    expect(await receiptMails(buyerEmail)).toEqual([]);

    const link = linkOf(confirmation!);
    const first = await open(link);
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^http:\/\/shop\.test\/receipt\/[A-Za-z0-9_-]{43}$/);
    const receiptToken = first.location.split('/receipt/')[1]!;

    const [purchase, ...more] = await purchasesOf(txRef);
    expect(more).toEqual([]);
    expect(purchase).toMatchObject({
      status: 'paid',
      provider: 'free',
      amount_minor: 0,
      receipt_token_hash: sha256Hex(receiptToken),
    });
    // The same entitlement path as any sale: purchase.paid with the receipt the link landed on.
    await waitFor(() => paidEventOf(txRef).length === 1);
    expect(paidEventOf(txRef)[0]!.data).toMatchObject({
      purchaseId: purchase.id,
      buyerEmail,
      receiptTokenHash: sha256Hex(receiptToken),
    });
    expect(await receiptMails(buyerEmail)).toHaveLength(1);

    // A second click (or the POST) shows the same receipt and records nothing more.
    expect(await open(link)).toEqual(first);
    expect(await postConfirm(tokenOf(link))).toEqual({
      status: 200,
      body: { receiptUrl: first.location },
    });
    await laterSaleSeen();
    expect(await purchasesOf(txRef)).toHaveLength(1);
    expect(paidEventOf(txRef)).toHaveLength(1);
    expect(await receiptMails(buyerEmail)).toHaveLength(1);
    expect(await confirmationMails(buyerEmail)).toHaveLength(1);

    // Now proven: the next free claim is a purchase at once, with no confirmation e-mail.
    const next = await claim((await freeProduct()).productId, buyerEmail);
    expect(next.body.confirmEmail).toBe(false);
    expect(await purchasesOf(next.body.txRef)).toHaveLength(1);
    expect(await confirmationMails(buyerEmail)).toHaveLength(1);
  });

  it('refuses an expired link and an altered or unknown one, and records nothing', async () => {
    const product = await freeProduct();
    const buyerEmail = email('late');
    const { body } = await claim(product.productId, buyerEmail);
    const link = linkOf((await confirmationMails(buyerEmail))[0]!);
    const token = tokenOf(link);

    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await postConfirm(altered)).toEqual({
      status: 404,
      body: {
        error: { code: 'claim_link_invalid', message: 'This confirmation link is not valid' },
      },
    });
    expect(await open(link.replace(token, altered))).toEqual({
      status: 303,
      location: 'http://shop.test/claim-link?error=claim_link_invalid',
    });
    expect((await postConfirm('not-a-token')).status).toBe(404);

    harness.clock.offsetMs = 61 * 60_000;
    try {
      expect(await postConfirm(token)).toEqual({
        status: 410,
        body: {
          error: {
            code: 'claim_link_expired',
            message: 'This confirmation link has expired; claim the product again to get a new one',
          },
        },
      });
      expect(await open(link)).toEqual({
        status: 303,
        location: 'http://shop.test/claim-link?error=claim_link_expired',
      });
    } finally {
      harness.clock.offsetMs = 0;
    }
    expect(await purchasesOf(body.txRef)).toEqual([]);
    expect(await receiptMails(buyerEmail)).toEqual([]);
  });

  it('repeat claims within the cool-down send no second e-mail; after it, one more link for the same claim', async () => {
    const product = await freeProduct();
    const buyerEmail = email('impatient');
    const first = await claim(product.productId, buyerEmail);
    const again = await claim(product.productId, buyerEmail.toUpperCase());
    // The same answer, the same claim: nothing tells the claimant whether a mail went out.
    expect(again.body).toEqual({ link: null, txRef: first.body.txRef, confirmEmail: true });
    expect(await confirmationMails(buyerEmail)).toHaveLength(1);

    harness.clock.offsetMs = 9 * 60_000;
    try {
      await claim(product.productId, buyerEmail);
      expect(await confirmationMails(buyerEmail)).toHaveLength(1);
      harness.clock.offsetMs = 11 * 60_000;
      const later = await claim(product.productId, buyerEmail);
      expect(later.body.txRef).toBe(first.body.txRef);
      const mails = await confirmationMails(buyerEmail);
      expect(mails).toHaveLength(2);

      // Either link confirms the one claim; the other then says it is confirmed already.
      const [older, newer] = mails.map(linkOf);
      expect((await open(newer!)).location).toMatch(/\/receipt\//);
      expect(await open(older!)).toEqual({
        status: 303,
        location: 'http://shop.test/claim-link?status=confirmed',
      });
    } finally {
      harness.clock.offsetMs = 0;
    }
    expect(await purchasesOf(first.body.txRef)).toHaveLength(1);
    const { rows } = await harness.pool.query(
      'SELECT count(*)::int AS n FROM checkouts WHERE product_id = $1',
      [product.productId],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('an address that has proven itself', () => {
  it('with an earlier paid purchase, claims at once as before: purchase, receipt, no confirmation', async () => {
    const paid = await harness.publishProduct({ priceMinor: 50_000 });
    const buyerEmail = email('customer');
    await buy(harness, paid.productId, buyerEmail);

    const product = await freeProduct();
    const started = await claim(product.productId, buyerEmail);
    expect(started.body.confirmEmail).toBe(false);
    expect(new URL(started.body.link).pathname).toBe('/payment/success');
    expect(await purchasesOf(started.body.txRef)).toMatchObject([
      { status: 'paid', provider: 'free' },
    ]);
    await waitFor(async () => (await receiptMails(buyerEmail)).length === 2);
    expect(await confirmationMails(buyerEmail)).toEqual([]);
  });

  it('signed in with a verified account e-mail claims at once; an unverified one must confirm', async () => {
    const product = await freeProduct();
    const verified = email('member');
    const token = await harness.token({ id: randomUUID(), email: verified, emailVerified: true });
    const mine = await claim(product.productId, verified.toUpperCase(), { token });
    expect(mine.body.confirmEmail).toBe(false);
    expect(await purchasesOf(mine.body.txRef)).toHaveLength(1);

    const unverified = email('newcomer');
    const theirs = await claim(product.productId, unverified, {
      token: await harness.token({ id: randomUUID(), email: unverified, emailVerified: false }),
    });
    expect(theirs.body.confirmEmail).toBe(true);
    // Someone else's address typed by a signed-in, verified account proves nothing either.
    const typed = await claim(product.productId, email('victim'), { token });
    expect(typed.body.confirmEmail).toBe(true);
  });
});

describe('free-claim limits (counted in the database, so every replica agrees)', () => {
  const expectLimited = async (started: Awaited<ReturnType<typeof claim>>) => {
    expect(started.response.status).toBe(429);
    const retryAfter = Number(started.response.headers.get('retry-after'));
    expect(started.body).toEqual({
      error: {
        code: 'rate_limited',
        message: 'Too many free claims right now, please try again later',
        details: { retryAfterSeconds: retryAfter },
      },
    });
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
  };

  it('per product', async () => {
    const product = await freeProduct();
    for (let i = 0; i < LIMITS.product; i++) {
      expect((await claim(product.productId, email('fan'))).response.status).toBe(200);
    }
    await expectLimited(await claim(product.productId, email('fan')));
    // Another product of another seller is not affected.
    expect((await claim((await freeProduct()).productId, email('fan'))).response.status).toBe(200);
    // An hour later the oldest claim no longer counts.
    harness.clock.offsetMs = 60 * 60_000 + 1_000;
    try {
      expect((await claim(product.productId, email('fan'))).response.status).toBe(200);
    } finally {
      harness.clock.offsetMs = 0;
    }
  });

  it('per seller, across their products', async () => {
    const ownerId = randomUUID();
    const products = await Promise.all([freeProduct({ ownerId }), freeProduct({ ownerId })]);
    for (let i = 0; i < LIMITS.seller; i++) {
      const product = products[i % 2]!;
      expect((await claim(product.productId, email('fan'))).response.status).toBe(200);
    }
    await expectLimited(await claim(products[1]!.productId, email('fan')));
  });

  it('per address, across sellers, proven or not', async () => {
    const buyerEmail = email('collector');
    for (let i = 0; i < LIMITS.email; i++) {
      expect((await claim((await freeProduct()).productId, buyerEmail)).response.status).toBe(200);
    }
    await expectLimited(await claim((await freeProduct()).productId, buyerEmail));
    expect(await confirmationMails(buyerEmail)).toHaveLength(LIMITS.email);
  });
});

describe('"Tell my buyers"', () => {
  function filesAdded(product: EventData<'product.published'>): DomainEvent<'product.files_added'> {
    return createEvent(
      'product.files_added',
      {
        productId: product.productId,
        ownerId: product.ownerId,
        productTitle: product.title,
        files: [{ fileId: randomUUID(), fileName: 'bonus.pdf' }],
        notifyBuyers: true,
      },
      { correlationId: randomUUID() },
    ) as DomainEvent<'product.files_added'>;
  }
  const updatesTo = async (recipient: string) =>
    (await mailsTo(recipient)).filter((mail) => mail.subject.startsWith('New in '));

  it('mails paid buyers and confirmed claims, never pending claims or claims that never proved their address', async () => {
    const product = await freeProduct();
    const payer = email('payer');
    await buy(harness, product.productId, payer); // pays the suggested price

    const confirmed = email('confirmed');
    await claim(product.productId, confirmed);
    await open(linkOf((await confirmationMails(confirmed))[0]!));

    const pending = email('pending');
    await claim(product.productId, pending);

    // A free purchase made before claims were confirmed: its address never proved itself.
    const legacy = email('legacy');
    const legacyClaim = await claim(product.productId, legacy, {
      token: await harness.token({ id: randomUUID(), email: legacy, emailVerified: true }),
    });
    const { rows } = await harness.pool.query('SELECT id FROM checkouts WHERE tx_ref = $1', [
      legacyClaim.body.txRef,
    ]);
    await harness.pool.query('DELETE FROM free_claims WHERE checkout_id = $1', [rows[0].id]);
    expect(await purchasesOf(legacyClaim.body.txRef)).toHaveLength(1);

    const event = filesAdded(product);
    await harness.publish(event);
    await waitFor(async () => {
      const { rows: done } = await harness.pool.query(
        'SELECT 1 FROM processed_events WHERE event_id = $1',
        [event.id],
      );
      return done.length > 0;
    });
    // Queued in the transaction that recorded the event as processed: all of them are there now.
    expect(await updatesTo(payer)).toHaveLength(1);
    expect(await updatesTo(confirmed)).toHaveLength(1);
    expect(await updatesTo(pending)).toEqual([]);
    expect(await updatesTo(legacy)).toEqual([]);
  });
});

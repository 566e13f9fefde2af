import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saleDigestEmail } from '../src/modules/sales/index.js';
import {
  buy,
  fetchJson,
  mailTo,
  sellerWithEmail,
  startHarness,
  waitFor,
  type Harness,
} from './support.js';

// Issue 31: at a flash sale a seller got one "You made a sale" per sale. The first sale is still
// e-mailed on its own; the sales after it, until the window ends, come in one e-mail.

const WINDOW_SECONDS = 4;
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ SALE_DIGEST_SECONDS: String(WINDOW_SECONDS) });
});
afterAll(() => harness?.close());

const saleMails = async (to: string) =>
  (await mailTo(harness.pool, to)).filter((mail) => /You made .*sale/.test(mail.subject));

/** Waits until the relay has sent everything queued (a digest is queued as its window ends). */
const outboxSent = () =>
  waitFor(
    async () =>
      (await harness.pool.query('SELECT 1 FROM mail_outbox WHERE attempts = 0 LIMIT 1')).rows
        .length === 0,
    10_000,
    'the mail outbox sent',
  );

/** Waits until the seller's window open now has ended: sent and restarted, or closed. */
async function windowEnded(sellerId: string) {
  const windowEnd = async () =>
    (
      await harness.pool.query<{ endsAt: Date }>(
        'SELECT window_ends_at AS "endsAt" FROM sale_digests WHERE seller_id = $1',
        [sellerId],
      )
    ).rows[0]?.endsAt;
  const open = await windowEnd();
  expect(open, 'a window open').toBeDefined();
  await waitFor(
    async () => {
      const endsAt = await windowEnd();
      return !endsAt || endsAt > open!;
    },
    (WINDOW_SECONDS + 6) * 1000,
    'the sale window ending',
  );
}

describe('sale e-mails at a flash sale (issue 31)', () => {
  it('e-mails the first sale on its own and the next ones together when the window ends; a quiet window closes', async () => {
    const { email, product } = await sellerWithEmail(harness);
    const buyers = [1, 2, 3].map(() => `buyer-${randomUUID()}@example.com`);
    for (const buyerEmail of buyers) await buy(harness, product.productId, buyerEmail);
    // Every receipt was queued with its sale: once they are delivered, any sale e-mail is too.
    await waitFor(async () => (await mailTo(harness.pool, buyers[2]!)).length > 0);
    const first = await saleMails(email);
    expect(first.map((mail) => mail.subject)).toEqual([`[TEST] You made a sale: ${product.title}`]);
    expect(first[0]!.text_body).toContain(`${buyers[0]} bought "${product.title}"`);

    const digest = await waitFor(
      async () => (await saleMails(email)).find((mail) => mail.subject.includes('more sales')),
      (WINDOW_SECONDS + 6) * 1000,
      'the digest',
    );
    expect(digest.subject).toBe(`[TEST] You made 2 more sales: ${product.title}`);
    expect(digest.text_body).toContain(
      `Since your last sale e-mail: 2 more sales of "${product.title}".`,
    );
    expect(digest.text_body).toContain('not part of your earnings or payouts');
    expect(digest.text_body).toContain(`one e-mail every ${WINDOW_SECONDS} seconds`);
    expect(digest.text_body).toContain('/settings#notifications');

    // A window with no sale closes: the next sale is e-mailed on its own again.
    await windowEnded(product.ownerId);
    const later = `buyer-${randomUUID()}@example.com`;
    await buy(harness, product.productId, later);
    await waitFor(
      async () => (await saleMails(email)).length === 3,
      10_000,
      'the next sale e-mailed',
    );
    const mails = await saleMails(email);
    expect(mails[2]!.subject).toBe(`[TEST] You made a sale: ${product.title}`);
    expect(mails[2]!.text_body).toContain(`${later} bought`);
  });

  it('sends no digest to a seller who turned sale e-mails off before the window ended', async () => {
    const { email, product, headers } = await sellerWithEmail(harness);
    const buyers = [1, 2].map(() => `buyer-${randomUUID()}@example.com`);
    for (const buyerEmail of buyers) await buy(harness, product.productId, buyerEmail);
    const off = await fetchJson(`${harness.url}/api/purchases/sale-emails`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ saleEmails: false }),
    });
    expect(off.status).toBe(200);
    // The window's end queues its digest in the same transaction; then the relay sends it.
    await windowEnded(product.ownerId);
    await outboxSent();
    expect((await saleMails(email)).map((mail) => mail.subject)).toEqual([
      `[TEST] You made a sale: ${product.title}`,
    ]);
  });
});

describe('the digest e-mail', () => {
  const deps = { publicUrl: 'https://lockdrop.example', windowSeconds: 60 };

  it('names up to three products, counts free claims and renewals, and sums earnings by currency', () => {
    const mail = saleDigestEmail(
      'ada@example.com',
      {
        testMode: false,
        sales: 1204,
        freeClaims: 3,
        renewals: 1,
        earnings: { NGN: '12345600', USD: '1999' },
        productTitles: ['Lagos Presets', 'Beat Pack', 'Font Kit'],
      },
      deps,
    );
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('You made 1,204 more sales');
    expect(mail.text).toContain(
      'Since your last sale e-mail: 1,204 more sales of "Lagos Presets", "Beat Pack" and "Font Kit", including 3 free claims and 1 subscription renewal.',
    );
    expect(mail.text).toContain('You earn ₦123,456 and $19.99 after fees');
    expect(mail.text).toContain('we gather them into one e-mail a minute.');
  });

  it('says how many products beyond three, and one sale in the singular', () => {
    const mail = saleDigestEmail(
      'ada@example.com',
      {
        testMode: false,
        sales: 1,
        freeClaims: 0,
        renewals: 0,
        earnings: {},
        productTitles: ['A', 'B', 'C', 'D'],
      },
      { ...deps, windowSeconds: 300 },
    );
    expect(mail.subject).toBe('You made 1 more sale');
    expect(mail.text).toContain('Since your last sale e-mail: 1 more sale across 4 products.');
    expect(mail.text).not.toContain('You earn');
    expect(mail.text).toContain('one e-mail every 5 minutes');
  });
});

import { randomUUID } from 'node:crypto';
import { createEvent, type DomainEvent, type EventData } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, startHarness, waitFor, type Harness } from './support.js';

/**
 * "Tell my buyers" (issue 13): catalog's product.files_added with notifyBuyers becomes one
 * e-mail per current buyer, through the mail outbox at the bulk rate, each with a working
 * unsubscribe link (page and RFC 8058 one-click) that stops that seller's update e-mails.
 */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_URL: 'http://shop.test', BULK_MAILS_PER_MINUTE: '600' });
});
afterAll(() => harness?.close());

const purchase = async (productId: string, buyerEmail: string) =>
  (await buy(harness, productId, buyerEmail)).purchaseId;

function filesAdded(
  product: EventData<'product.published'>,
  notifyBuyers: boolean,
  fileName = 'bonus-chapter.pdf',
): DomainEvent<'product.files_added'> {
  return createEvent(
    'product.files_added',
    {
      productId: product.productId,
      ownerId: product.ownerId,
      productTitle: product.title,
      files: [{ fileId: randomUUID(), fileName }],
      notifyBuyers,
    },
    { correlationId: randomUUID() },
  ) as DomainEvent<'product.files_added'>;
}

interface Mail {
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string> | null;
}

async function updateMailsTo(recipient: string): Promise<Mail[]> {
  const { rows } = await harness.pool.query<Mail>(
    `SELECT subject, text_body, html_body, headers FROM mailbox.messages
     WHERE recipient = $1 AND subject LIKE 'New in %' ORDER BY id`,
    [recipient],
  );
  return rows;
}

const tokenOf = (mail: Mail) => /\/unsubscribe\/([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

async function consumed(eventId: string) {
  await waitFor(async () => {
    const { rows } = await harness.pool.query(
      'SELECT 1 FROM processed_events WHERE event_id = $1',
      [eventId],
    );
    return rows.length > 0;
  });
}

describe('telling past buyers about new files', () => {
  it('e-mails each current buyer once, with a library link and a working unsubscribe', async () => {
    const product = await harness.publishProduct({ title: 'Lagos cookbook' });
    const ada = email('ada');
    const bayo = email('bayo');
    const refunded = email('refunded');
    await purchase(product.productId, ada);
    await purchase(product.productId, ada.toUpperCase()); // the same person twice: one e-mail
    await purchase(product.productId, bayo);
    const refundedPurchase = await purchase(product.productId, refunded);
    // As the refund flow leaves a refunded sale (refunds-and-purchases.test.ts drives that flow).
    await harness.pool.query(
      `UPDATE purchases SET status = 'refunded', refunded_at = now() WHERE id = $1`,
      [refundedPurchase],
    );
    const stranger = await harness.publishProduct({ title: 'Another product' });
    await purchase(stranger.productId, email('other-buyer'));

    const event = filesAdded(product, true);
    await harness.publish(event);
    // A redelivered event (same id) queues nothing more.
    await harness.publish(event);
    await waitFor(async () => (await updateMailsTo(bayo)).length === 1, 10_000);
    await waitFor(async () => (await updateMailsTo(ada)).length === 1, 10_000);
    expect(await updateMailsTo(refunded)).toEqual([]);

    const [mail] = await updateMailsTo(ada);
    expect(mail!.subject).toBe('New in Lagos cookbook: bonus-chapter.pdf');
    expect(mail!.text_body).toContain('added "bonus-chapter.pdf"');
    expect(mail!.text_body).toContain('Open your library: http://shop.test/purchases');
    const token = tokenOf(mail!);
    expect(mail!.text_body).toContain(`Unsubscribe: http://shop.test/unsubscribe/${token}`);
    expect(mail!.html_body).toContain(`href="http://shop.test/unsubscribe/${token}"`);
    expect(mail!.headers).toEqual({
      'List-Unsubscribe': `<http://shop.test/api/buyer-updates/${token}/unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });

    // The page: where the address stands, then Unsubscribe.
    const page = await fetch(`${harness.url}/api/buyer-updates/${token}`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.json()).toEqual({
      email: ada.toLowerCase(),
      productTitle: 'Lagos cookbook',
      subscribed: true,
    });
    // The mail app's one-click POST: url-encoded, no cookies, no sign-in.
    const oneClick = await fetch(`${harness.url}/api/buyer-updates/${token}/unsubscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(((await oneClick.json()) as { subscribed: boolean }).subscribed).toBe(false);

    // The next update reaches Bayo (with the same link as before) and not Ada.
    const second = filesAdded(product, true, 'bonus-recipes.pdf');
    await harness.publish(second);
    await waitFor(async () => (await updateMailsTo(bayo)).length === 2, 10_000);
    const bayoMails = await updateMailsTo(bayo);
    expect(tokenOf(bayoMails[1]!)).toBe(tokenOf(bayoMails[0]!));
    expect(await updateMailsTo(ada)).toHaveLength(1);

    // Subscribing again from the page brings the next one back.
    const again = await fetch(`${harness.url}/api/buyer-updates/${token}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscribed: true }),
    });
    expect(((await again.json()) as { subscribed: boolean }).subscribed).toBe(true);
    await harness.publish(filesAdded(product, true, 'bonus-3.pdf'));
    await waitFor(async () => (await updateMailsTo(ada)).length === 2, 10_000);
  });

  it('sends nothing when the seller did not tick Tell my buyers', async () => {
    const product = await harness.publishProduct({ title: 'Quiet update' });
    const buyer = email('quiet');
    await purchase(product.productId, buyer);
    const event = filesAdded(product, false);
    await harness.publish(event);
    await consumed(event.id);
    const { rows } = await harness.pool.query(
      `SELECT count(*)::int AS queued FROM mail_outbox WHERE message->>'to' = $1 AND bulk`,
      [buyer],
    );
    expect(rows[0].queued).toBe(0);
    expect(await updateMailsTo(buyer)).toEqual([]);
  });

  it('answers an unknown or malformed token 404 in words', async () => {
    for (const token of ['x'.repeat(43), 'not-a-token']) {
      const response = await fetch(`${harness.url}/api/buyer-updates/${token}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { code: 'unsubscribe_link_invalid', message: 'This unsubscribe link is not valid' },
      });
      const oneClick = await fetch(`${harness.url}/api/buyer-updates/${token}/unsubscribe`, {
        method: 'POST',
      });
      expect(oneClick.status).toBe(404);
    }
  });
});

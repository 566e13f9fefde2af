import { randomBytes } from 'node:crypto';
import type { BuyerUpdatesSubscription as SubscriptionView, EventData } from '@lockdrop/contracts';
import type { Pool, Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import {
  enqueueBulkMail,
  renderEmail,
  unsubscribeHeaders,
  type EmailContent,
  type MailMessage,
} from '@lockdrop/mailer';
import { emailBrand, findShownBrand } from '../read-models/index.js';
import {
  currentBuyersOf,
  findSubscriptionByToken,
  setSubscribed,
  subscriptionsFor,
  type BuyerUpdatesSubscription,
} from './buyer-updates.repository.js';

/** The unsubscribe link's token: 32 random bytes, URL-safe. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const linkInvalid = () =>
  new AppError('unsubscribe_link_invalid', 404, 'This unsubscribe link is not valid');

export interface BuyerUpdatesDeps {
  pool: Pool;
  publicUrl: string;
  /** BULK_MAILS_PER_MINUTE: how fast the e-mails of one announcement go out. */
  bulkMailsPerMinute: number;
  now: () => Date;
}

/** Where an unsubscribe link points: the page, and the RFC 8058 one-click address. */
export const unsubscribeUrls = (publicUrl: string, token: string) => ({
  page: `${publicUrl}/unsubscribe/${token}`,
  oneClick: `${publicUrl}/api/buyer-updates/${token}/unsubscribe`,
});

export function newFilesEmail(input: {
  to: string;
  productTitle: string;
  fileNames: string[];
  publicUrl: string;
  token: string;
  /** The seller's brand (Pro and up). The links stay on Lockdrop: the library needs sign-in. */
  brand?: EmailContent['brand'];
}): MailMessage {
  const { page, oneClick } = unsubscribeUrls(input.publicUrl, input.token);
  const names = input.fileNames.map((name) => `"${name}"`).join(', ');
  const one = input.fileNames.length === 1;
  const rendered = renderEmail({
    subject: `New in ${input.productTitle}: ${one ? input.fileNames[0] : `${input.fileNames.length} files`}`,
    heading: `${input.productTitle} has ${one ? 'a new file' : 'new files'}`,
    paragraphs: [
      `The seller of "${input.productTitle}" added ${names}. It is part of what you bought: download ${one ? 'it' : 'them'} now, with the rest of your files, at no extra cost.`,
      'Your library lists every file when you sign in with this e-mail address. Without an account, the Download button of your receipt e-mail shows them too.',
    ],
    action: { label: 'Open your library', url: `${input.publicUrl}/purchases` },
    footnote: `You received this e-mail because you bought "${input.productTitle}" with this address. You can stop e-mails about updates from this seller at any time.`,
    unsubscribeUrl: page,
    brand: input.brand ?? null,
  });
  return { to: input.to, ...rendered, headers: unsubscribeHeaders(oneClick) };
}

/**
 * "Tell my buyers": queues one e-mail per current buyer of the product who has not
 * unsubscribed from this seller, at the bulk rate, in the transaction that consumes the event.
 * Returns how many were queued.
 */
export async function tellBuyersAboutNewFiles(
  tx: Queryable,
  update: EventData<'product.files_added'>,
  { publicUrl, bulkMailsPerMinute }: Pick<BuyerUpdatesDeps, 'publicUrl' | 'bulkMailsPerMinute'>,
): Promise<number> {
  const buyers = await currentBuyersOf(tx, update.productId);
  if (buyers.length === 0) return 0;
  const subscriptions = await subscriptionsFor(
    tx,
    update.ownerId,
    update.productTitle,
    buyers,
    buyers.map(() => randomBytes(32).toString('base64url')),
  );
  const brand = emailBrand(await findShownBrand(tx, update.ownerId), publicUrl);
  const messages = subscriptions
    .filter((subscription) => subscription.unsubscribedAt === null)
    .map((subscription) =>
      newFilesEmail({
        to: subscription.buyerEmail,
        productTitle: update.productTitle,
        fileNames: update.files.map((file) => file.fileName),
        publicUrl,
        token: subscription.token,
        brand,
      }),
    );
  await enqueueBulkMail(tx, messages, { perMinute: bulkMailsPerMinute });
  return messages.length;
}

const viewOf = (subscription: BuyerUpdatesSubscription): SubscriptionView => ({
  email: subscription.buyerEmail,
  productTitle: subscription.productTitle,
  subscribed: subscription.unsubscribedAt === null,
});

/** The unsubscribe link's page and its one-click POST: the token is the only credential. */
export function createBuyerUpdatesService({ pool, now }: Pick<BuyerUpdatesDeps, 'pool' | 'now'>) {
  return {
    async describe(token: string): Promise<SubscriptionView> {
      const found = TOKEN_PATTERN.test(token) ? await findSubscriptionByToken(pool, token) : null;
      if (!found) throw linkInvalid();
      return viewOf(found);
    },
    async change(token: string, subscribed: boolean): Promise<SubscriptionView> {
      const changed = TOKEN_PATTERN.test(token)
        ? await setSubscribed(pool, token, subscribed, now())
        : null;
      if (!changed) throw linkInvalid();
      return viewOf(changed);
    },
  };
}

export type BuyerUpdatesService = ReturnType<typeof createBuyerUpdatesService>;

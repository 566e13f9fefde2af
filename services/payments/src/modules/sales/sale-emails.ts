import type { PublicBrand } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { renderEmail, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';
import {
  SAVED_BRAND_COLUMNS,
  SELLER_DOMAIN_COLUMNS,
  shownBrand,
  type SavedBrand,
  type SellerDomain,
} from '../read-models/index.js';

export const TEST_SALE_NOTICE =
  'This was a test payment: no money was charged, and it is not part of your earnings or payouts.';

/** Whether the seller wants "You made a sale" e-mails: on until they turn it off. */
export async function saleEmailsEnabled(db: Queryable, sellerId: string): Promise<boolean> {
  const { rows } = await db.query<{ sale_emails: boolean }>(
    'SELECT sale_emails FROM seller_mail_settings WHERE seller_id = $1',
    [sellerId],
  );
  return rows[0]?.sale_emails ?? true;
}

export async function setSaleEmails(
  db: Queryable,
  sellerId: string,
  enabled: boolean,
): Promise<void> {
  await db.query(
    `INSERT INTO seller_mail_settings (seller_id, sale_emails) VALUES ($1, $2)
     ON CONFLICT (seller_id) DO UPDATE SET sale_emails = EXCLUDED.sale_emails, updated_at = now()`,
    [sellerId, enabled],
  );
}

interface SaleMail {
  to: string;
  productTitle: string;
  buyerEmail: string;
  amountMinor: number;
  sellerEarningsMinor: number;
  currency: string;
  testMode: boolean;
  renewal: boolean;
  salesUrl: string;
  settingsUrl: string;
}

export function saleEmail(input: SaleMail): MailMessage {
  const amount = formatMoney(input.amountMinor, input.currency);
  const what =
    input.amountMinor === 0
      ? `${input.buyerEmail} claimed "${input.productTitle}" for free.`
      : input.renewal
        ? `${input.buyerEmail} renewed their subscription to "${input.productTitle}" for ${amount}.`
        : `${input.buyerEmail} bought "${input.productTitle}" for ${amount}.`;
  return {
    to: input.to,
    ...renderEmail({
      subject: `${input.testMode ? '[TEST] ' : ''}You made a sale: ${input.productTitle}`,
      heading: input.testMode ? 'You made a test sale' : 'You made a sale',
      paragraphs: [
        ...(input.testMode ? [TEST_SALE_NOTICE] : []),
        what,
        ...(input.amountMinor > 0 && !input.testMode
          ? [
              `You earn ${formatMoney(input.sellerEarningsMinor, input.currency)} after fees; it is paid out once the refund window has passed.`,
            ]
          : []),
      ],
      action: { label: 'See your sales', url: input.salesUrl },
      footnote: `You received this e-mail because you sell on Lockdrop. Turn sale e-mails off in Settings: ${input.settingsUrl}`,
    }),
  };
}

/** What recording a sale needs to know about its seller: the e-mail, its setting, the brand. */
export interface SellerForSale {
  /** null while identity has not yet told payments the seller's address. */
  email: string | null;
  saleEmails: boolean;
  brand: PublicBrand | null;
  /** The store's custom domain as last announced (where its buyers' links may go), or null. */
  domain: SellerDomain | null;
  /**
   * A sale e-mail opened a window that has not closed (sale-digests.ts): this mode's sales go into
   * its digest. Set by the batch once it e-mails one of this seller's sales on its own.
   */
  digestOpen: boolean;
}

/**
 * The sellers of a batch of sales, one statement for all of them (issue 31: a settlement batch
 * reads each seller once, not twice per sale).
 */
export async function findSellersForSales(
  tx: Queryable,
  sellerIds: string[],
  testMode = false,
): Promise<Map<string, SellerForSale>> {
  const { rows } = await tx.query<
    SavedBrand &
      SellerDomain & {
        sellerId: string;
        email: string | null;
        saleEmails: boolean;
        digestOpen: boolean;
      }
  >(
    `SELECT ids.seller_id AS "sellerId", s.email, coalesce(m.sale_emails, true) AS "saleEmails",
            EXISTS (SELECT 1 FROM sale_digests g
                    WHERE g.seller_id = ids.seller_id AND g.test_mode = $2) AS "digestOpen",
            ${SAVED_BRAND_COLUMNS}, ${SELLER_DOMAIN_COLUMNS}
       FROM unnest($1::uuid[]) AS ids (seller_id)
       LEFT JOIN sellers s ON s.user_id = ids.seller_id
       LEFT JOIN seller_mail_settings m ON m.seller_id = ids.seller_id
       LEFT JOIN seller_brands b ON b.seller_id = ids.seller_id AND NOT b.deleted
       LEFT JOIN seller_domains d ON d.seller_id = ids.seller_id AND NOT d.deleted`,
    [[...new Set(sellerIds)], testMode],
  );
  return new Map(
    rows.map((row) => [
      row.sellerId,
      {
        email: row.email,
        saleEmails: row.saleEmails,
        brand: shownBrand(row),
        domain: row.domainHost ? row : null,
        digestOpen: row.digestOpen,
      },
    ]),
  );
}

/**
 * "You made a sale" for the caller to queue in the transaction that records the sale, so a
 * redelivered webhook or event (which finds the sale recorded) never sends a second one. null while
 * identity has not yet told payments the seller's address, or when the seller turned these off.
 */
export function saleEmailFor(
  seller: SellerForSale,
  publicUrl: string,
  sale: Omit<SaleMail, 'to' | 'salesUrl' | 'settingsUrl'>,
): MailMessage | null {
  if (!seller.email || !seller.saleEmails) return null;
  return saleEmail({
    ...sale,
    to: seller.email,
    salesUrl: `${publicUrl}/dashboard/payments`,
    settingsUrl: `${publicUrl}/settings#notifications`,
  });
}

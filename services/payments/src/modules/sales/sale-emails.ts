import type { Queryable } from '@lockdrop/db';
import { renderEmail, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';

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

/**
 * "You made a sale" for the caller to queue in the transaction that records the sale, so a
 * redelivered webhook or event (which finds the sale recorded) never sends a second one. null while
 * identity has not yet told payments the seller's address, or when the seller turned these off.
 * One statement: the seller's address and setting together.
 */
export async function saleEmailFor(
  tx: Queryable,
  seller: { sellerId: string; publicUrl: string },
  sale: Omit<SaleMail, 'to' | 'salesUrl' | 'settingsUrl'>,
): Promise<MailMessage | null> {
  const { rows } = await tx.query<{ email: string | null; enabled: boolean }>(
    `SELECT s.email, coalesce(m.sale_emails, true) AS enabled
       FROM sellers s LEFT JOIN seller_mail_settings m ON m.seller_id = s.user_id
      WHERE s.user_id = $1`,
    [seller.sellerId],
  );
  const to = rows[0]?.email;
  if (!to || !rows[0]!.enabled) return null;
  return saleEmail({
    ...sale,
    to,
    salesUrl: `${seller.publicUrl}/dashboard/payments`,
    settingsUrl: `${seller.publicUrl}/settings#notifications`,
  });
}

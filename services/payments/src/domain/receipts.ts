import { createHash, randomBytes } from 'node:crypto';
import { renderEmail, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A secret for the receipt link; only its hash is stored and published. */
export function newReceiptToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: sha256Hex(token) };
}

export function receiptEmail(input: {
  to: string;
  productTitle: string;
  amountMinor: number;
  currency: string;
  txRef: string;
  receiptUrl: string;
  refundWindowHours: number;
}): MailMessage {
  const rendered = renderEmail({
    subject: `Your receipt for ${input.productTitle}`,
    heading: 'Payment Successful!',
    paragraphs: [
      `Thank you for buying "${input.productTitle}".`,
      `Amount paid: ${formatMoney(input.amountMinor, input.currency)}`,
      `Reference: ${input.txRef}`,
      'Use the button below to download your file whenever you like, without an account. Download links are valid for 1 hour; come back here for a fresh one.',
    ],
    action: { label: 'Download your file', url: input.receiptUrl },
    footnote: `You received this e-mail because this address was used for a purchase on Lockdrop. Refunds are possible within ${input.refundWindowHours} hours of payment.`,
  });
  return { to: input.to, ...rendered };
}

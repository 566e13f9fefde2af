import { renderEmail, type EmailContent, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';

/** The buyer's word that their money is on its way back (sent once the provider confirmed it). */
export function refundEmail(input: {
  to: string;
  productTitle: string;
  amountMinor: number;
  currency: string;
  txRef: string;
  testMode: boolean;
  /** The seller's brand when their plan includes it (logo URL absolute), as on the receipt. */
  brand?: EmailContent['brand'];
}): MailMessage {
  const amount = formatMoney(input.amountMinor, input.currency);
  return {
    to: input.to,
    ...renderEmail({
      subject: `${input.testMode ? '[TEST] ' : ''}Your refund for ${input.productTitle}`,
      heading: 'Your payment was refunded',
      paragraphs: [
        input.testMode
          ? `Your test payment of ${amount} for "${input.productTitle}" was refunded. It was a test payment: no money was charged, so none moves back.`
          : `Your payment of ${amount} for "${input.productTitle}" was refunded. The money goes back to the card or account you paid with; depending on your bank it arrives within 5–10 business days.`,
        'Your access to the files of this purchase has ended.',
        `Reference: ${input.txRef}`,
      ],
      footnote: `You received this e-mail because this address was used for a purchase ${input.brand ? `from ${input.brand.name}` : 'on Lockdrop'}.`,
      brand: input.brand ?? null,
    }),
  };
}

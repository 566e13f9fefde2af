import { newBrowserKey } from '@lockdrop/auth';
import { renderEmail, type EmailContent, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';
import type { BillingInterval } from '@lockdrop/contracts';

/** A secret for the receipt link; only its hash is stored and published. */
export function newReceiptToken(): { token: string; tokenHash: string } {
  const { key, hash } = newBrowserKey();
  return { token: key, tokenHash: hash };
}

export const TEST_PAYMENT_NOTICE =
  'This was a test payment: no money was charged, and the seller earned nothing from it.';

export function receiptEmail(input: {
  to: string;
  productTitle: string;
  amountMinor: number;
  currency: string;
  txRef: string;
  receiptUrl: string;
  refundWindowHours: number;
  /** A sandbox or test-key payment: the buyer must not mistake it for a real charge. */
  testMode: boolean;
  /** A charge of a subscription: the first (`renewal: false`) or a renewal. */
  subscription?: { interval: BillingInterval; renewal: boolean } | null;
  /** The seller's discount code the buyer used, and what it took off. */
  discount?: { code: string; amountOffMinor: number } | null;
  /** The seller's brand when their plan includes it (logo URL absolute). */
  brand?: EmailContent['brand'];
}): MailMessage {
  const { subscription } = input;
  const per = subscription?.interval === 'yearly' ? 'year' : 'month';
  const rendered = renderEmail({
    subject: `${input.testMode ? '[TEST] ' : ''}${
      subscription?.renewal
        ? `Your subscription to ${input.productTitle} renewed`
        : `Your receipt for ${input.productTitle}`
    }`,
    heading: input.testMode ? 'Test payment successful' : 'Payment Successful!',
    paragraphs: [
      ...(input.testMode ? [TEST_PAYMENT_NOTICE] : []),
      subscription
        ? subscription.renewal
          ? `Your subscription to "${input.productTitle}" renewed for another ${per}.`
          : `Thank you for subscribing to "${input.productTitle}". It renews every ${per} until you cancel it from your purchases.`
        : `Thank you for buying "${input.productTitle}".`,
      input.amountMinor === 0
        ? 'Amount paid: nothing, this one is free.'
        : `Amount paid: ${formatMoney(input.amountMinor, input.currency)}`,
      ...(input.discount
        ? [
            `Discount code ${input.discount.code}: ${formatMoney(input.discount.amountOffMinor, input.currency)} off`,
          ]
        : []),
      `Reference: ${input.txRef}`,
      'Use the button below to download your file whenever you like, without an account. Download links are valid for 1 hour; come back here for a fresh one.',
    ],
    action: { label: 'Download your file', url: input.receiptUrl },
    footnote: `You received this e-mail because this address was used for a purchase ${input.brand ? `from ${input.brand.name}` : 'on Lockdrop'}. Refunds are possible within ${input.refundWindowHours} hours of payment.`,
    brand: input.brand ?? null,
  });
  return { to: input.to, ...rendered };
}

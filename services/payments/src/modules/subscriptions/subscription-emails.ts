import { renderEmail, type EmailContent, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';
import type { Subscription } from './subscriptions.repository.js';
import { TEST_PAYMENT_NOTICE } from '../sales/index.js';

const day = (date: Date) =>
  date.toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'Africa/Lagos' });

const per = (sub: Pick<Subscription, 'billingInterval'>) =>
  sub.billingInterval === 'yearly' ? 'per year' : 'per month';

const testPrefix = (testMode: boolean) => (testMode ? '[TEST] ' : '');

const subscriptionFootnote = (brand: EmailContent['brand']) =>
  `You received this e-mail because this address holds a subscription ${brand ? `to ${brand.name}` : 'on Lockdrop'}.`;

/** A seller paid for their Lockdrop plan (first charge, renewal or change). */
export function planReceiptEmail(input: {
  sub: Subscription;
  amountMinor: number;
  txRef: string;
  settingsUrl: string;
  testMode: boolean;
}): MailMessage {
  const { sub } = input;
  return {
    to: sub.buyerEmail,
    ...renderEmail({
      subject: `${testPrefix(input.testMode)}Your receipt for ${sub.title}`,
      heading: input.testMode ? 'Test payment successful' : 'Payment Successful!',
      paragraphs: [
        ...(input.testMode ? [TEST_PAYMENT_NOTICE] : []),
        `Thank you: your ${sub.title} plan is active until ${day(sub.currentPeriodEnd)}, then renews at ${formatMoney(sub.amountMinor, sub.currency)} ${per(sub)} unless you cancel.`,
        `Amount paid: ${formatMoney(input.amountMinor, sub.currency)}`,
        `Reference: ${input.txRef}`,
      ],
      action: { label: 'Manage your plan', url: input.settingsUrl },
      footnote:
        sub.billingInterval === 'yearly'
          ? 'Annual plans cancelled within 30 days of payment are refunded pro rata.'
          : 'You can change or cancel your plan at any time in your settings.',
    }),
  };
}

/** A renewal was declined: access lasts through the grace period; the link lets them pay. */
export function renewalFailedEmail(input: {
  sub: Subscription;
  graceUntil: Date;
  payUrl: string;
  testMode: boolean;
  /** A product subscription's seller's brand (Pro and up); a Lockdrop plan has none. */
  brand?: EmailContent['brand'];
}): MailMessage {
  const { sub } = input;
  return {
    to: sub.buyerEmail,
    ...renderEmail({
      subject: `${testPrefix(input.testMode)}We could not renew your subscription to ${sub.title}`,
      heading: 'Your payment did not go through',
      paragraphs: [
        `The renewal of "${sub.title}" (${formatMoney(sub.amountMinor, sub.currency)} ${per(sub)}) was declined.`,
        `You keep access until ${day(input.graceUntil)}. Pay before then to keep your subscription; after that it ends.`,
      ],
      action: { label: 'Pay now', url: input.payUrl },
      footnote: subscriptionFootnote(input.brand),
      brand: input.brand ?? null,
    }),
  };
}

/** Seven days before a yearly renewal (a year is long enough to forget a subscription). */
export function renewalReminderEmail(input: {
  sub: Subscription;
  manageUrl: string;
  testMode: boolean;
  /** A product subscription's seller's brand (Pro and up); a Lockdrop plan has none. */
  brand?: EmailContent['brand'];
}): MailMessage {
  const { sub } = input;
  return {
    to: sub.buyerEmail,
    ...renderEmail({
      subject: `${testPrefix(input.testMode)}Your subscription to ${sub.title} renews on ${day(sub.currentPeriodEnd)}`,
      heading: 'Your yearly subscription renews soon',
      paragraphs: [
        `On ${day(sub.currentPeriodEnd)} your subscription to "${sub.title}" renews for ${formatMoney(sub.amountMinor, sub.currency)} for another year.`,
        'Nothing to do if you want to keep it. To stop it, cancel before that day; you keep access until then.',
      ],
      action: { label: 'Manage subscription', url: input.manageUrl },
      footnote: subscriptionFootnote(input.brand),
      brand: input.brand ?? null,
    }),
  };
}

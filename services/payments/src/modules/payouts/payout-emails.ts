import { renderEmail, type MailMessage } from '@lockdrop/mailer';
import { formatMoney } from '@lockdrop/money';

const when = (date: Date) =>
  date.toLocaleString('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Africa/Lagos',
  }) + ' (Lagos time)';

const NOT_ME =
  'If this was not you, someone is signed in to your account: sign out of every session and change your password in Settings, then contact support — we will stop the payout. Do not reply with any codes or passwords.';

const holdLine = (heldUntil: Date | null) =>
  heldUntil ? [`To protect your earnings, no payout is sent before ${when(heldUntil)}.`] : [];

export function destinationChangedEmail(input: {
  to: string;
  previousLabel: string;
  newLabel: string;
  heldUntil: Date | null;
}): MailMessage {
  return {
    to: input.to,
    ...renderEmail({
      subject: 'Your Lockdrop payout details were changed',
      heading: 'Payout details changed',
      paragraphs: [
        `Your payouts now go to ${input.newLabel} instead of ${input.previousLabel}.`,
        ...holdLine(input.heldUntil),
        NOT_ME,
      ],
      footnote:
        'You received this e-mail because the payout details of your Lockdrop account changed.',
    }),
  };
}

export function destinationAddedEmail(input: {
  to: string;
  newLabel: string;
  heldUntil: Date | null;
}): MailMessage {
  return {
    to: input.to,
    ...renderEmail({
      subject: 'A payout destination was added to your Lockdrop account',
      heading: 'Payout details added',
      paragraphs: [
        `Your payouts will go to ${input.newLabel}.`,
        ...holdLine(input.heldUntil),
        NOT_ME,
      ],
      footnote:
        'You received this e-mail because payout details were added to your Lockdrop account.',
    }),
  };
}

interface PayoutMail {
  to: string;
  amountMinor: number;
  currency: string;
  destinationLabel: string;
  dashboardUrl: string;
  /** Test money (sandbox, test keys): paid out in the sandbox only, never to a bank (issue 29). */
  testMode: boolean;
}

const testPrefix = (testMode: boolean) => (testMode ? '[TEST] ' : '');
const testLine = (input: PayoutMail) =>
  input.testMode
    ? [
        `This was a test payout of test payments: the sandbox moved no real money and nothing was sent to ${input.destinationLabel}.`,
      ]
    : [];

export function payoutSentEmail(input: PayoutMail): MailMessage {
  const amount = formatMoney(input.amountMinor, input.currency);
  return {
    to: input.to,
    ...renderEmail({
      subject: `${testPrefix(input.testMode)}Payout sent: ${amount}`,
      heading: 'Your payout is on its way',
      paragraphs: input.testMode
        ? testLine(input)
        : [
            `We sent ${amount} to ${input.destinationLabel}.`,
            'Depending on your bank it arrives within 1–3 business days.',
          ],
      action: { label: 'See your payouts', url: input.dashboardUrl },
      footnote: 'You received this e-mail because you sell on Lockdrop.',
    }),
  };
}

export function payoutFailedEmail(input: PayoutMail & { reason: string }): MailMessage {
  const amount = formatMoney(input.amountMinor, input.currency);
  return {
    to: input.to,
    ...renderEmail({
      subject: `${testPrefix(input.testMode)}Payout failed: ${amount}`,
      heading: 'We could not send your payout',
      paragraphs: [
        `Your payout of ${amount} to ${input.destinationLabel} failed: ${input.reason}`,
        ...testLine(input),
        'The money is back in your available balance. Check your payout details in Settings (the account number, the bank, or the e-mail) and it goes out with the next payout, or press Withdraw now.',
      ],
      action: { label: 'Check your payout details', url: input.dashboardUrl },
      footnote: 'You received this e-mail because you sell on Lockdrop.',
    }),
  };
}

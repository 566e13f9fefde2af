import { renderEmail, type MailMessage } from '@lockdrop/mailer';

/** Builds the e-mails identity sends; links point at the public site (`PUBLIC_URL`). */
export function createEmails(publicUrl: string) {
  const link = (path: string, token: string) => {
    const url = new URL(path, publicUrl);
    url.searchParams.set('token', token);
    return url.toString();
  };
  return {
    verification(to: string, fullName: string, token: string): MailMessage {
      return {
        to,
        ...renderEmail({
          subject: 'Confirm your e-mail for Lockdrop',
          heading: `Welcome to Lockdrop, ${fullName}!`,
          paragraphs: ['Please confirm your e-mail address so buyers and payouts can reach you.'],
          action: { label: 'Confirm my e-mail', url: link('/api/auth/verify-email', token) },
          footnote:
            'The link is valid for 24 hours. If you did not create a Lockdrop account, ignore this e-mail.',
        }),
      };
    },
    passwordReset(to: string, token: string): MailMessage {
      return {
        to,
        ...renderEmail({
          subject: 'Reset your Lockdrop password',
          heading: 'Reset your password',
          paragraphs: [
            'Someone (hopefully you) asked to reset the password of your Lockdrop account.',
          ],
          action: { label: 'Choose a new password', url: link('/reset-password', token) },
          footnote:
            'The link is valid for 1 hour and works once. If you did not ask for it, ignore this e-mail: your password stays the same.',
        }),
      };
    },
    secondFactorLocked(to: string): MailMessage {
      return {
        to,
        ...renderEmail({
          subject: 'Someone is trying to sign in to your Lockdrop account',
          heading: 'Sign-in paused after wrong authenticator codes',
          paragraphs: [
            'Your password was entered correctly, followed by several wrong codes from your authenticator app. We have paused sign-in with two-factor codes on your account for an hour.',
            'If this was not you, someone knows your password: choose a new one now. Your authenticator still protects the account meanwhile.',
          ],
          action: {
            label: 'Choose a new password',
            url: new URL('/forgot-password', publicUrl).toString(),
          },
          footnote: 'If it was you, wait an hour and try again with a fresh code.',
        }),
      };
    },
    reauthenticationCode(to: string, code: string, minutes: number): MailMessage {
      return {
        to,
        ...renderEmail({
          subject: `${code} is your Lockdrop confirmation code`,
          heading: 'Confirm it is you',
          paragraphs: [
            `Enter this code in Lockdrop to confirm a change to your payout details: ${code}`,
            `It works once, for ${minutes} minutes.`,
            'If you did not ask for it, someone may be signed in to your account: sign out of every session in Settings and contact support.',
          ],
          footnote: 'Never share this code: Lockdrop staff will never ask for it.',
        }),
      };
    },
    recoveryCodeUsed(to: string, remaining: number): MailMessage {
      const left =
        remaining === 0
          ? 'That was your last one: you have no recovery codes left.'
          : `You have ${remaining} recovery code${remaining === 1 ? '' : 's'} left.`;
      return {
        to,
        ...renderEmail({
          subject: 'A recovery code was used on your Lockdrop account',
          heading: 'A recovery code was used',
          paragraphs: [
            `One of your two-factor recovery codes was just used on your Lockdrop account. ${left}`,
            'If you lost your phone, set up your authenticator again and make a new set of recovery codes in Settings → Two-factor authentication.',
            'If this was not you, someone knows your password and one of your codes: choose a new password now and make new recovery codes.',
          ],
          action: {
            label: 'Open settings',
            url: new URL('/settings#settings-mfa', publicUrl).toString(),
          },
          footnote: 'Each recovery code works once. Keep the rest somewhere safe and offline.',
        }),
      };
    },
    storeInvite(to: string, storeName: string, role: string, token: string): MailMessage {
      return {
        to,
        ...renderEmail({
          subject: `${storeName} invited you to their Lockdrop store`,
          heading: `Join ${storeName} on Lockdrop`,
          paragraphs: [
            `${storeName} invited you to help run their store as ${role === 'admin' ? 'an' : 'a'} ${role}.`,
            'Sign in (or create an account) with this e-mail address to accept.',
          ],
          action: { label: 'Accept the invitation', url: link('/invite', token) },
          footnote:
            'The link is valid for 72 hours, works once and only for this e-mail address. If you did not expect it, ignore this e-mail.',
        }),
      };
    },
    /** To both sides of an ownership transfer (issue 28), so a transfer nobody meant is noticed. */
    ownershipTransferred(
      to: string,
      side: 'previous' | 'new',
      store: { name: string; previousOwner: string; newOwner: string },
    ): MailMessage {
      return {
        to,
        ...renderEmail({
          subject:
            side === 'new'
              ? `You now own ${store.name} on Lockdrop`
              : `You handed ${store.name} to ${store.newOwner}`,
          heading: `${store.name} has a new owner`,
          paragraphs: [
            `${store.previousOwner} transferred the ownership of ${store.name} to ${store.newOwner}.`,
            side === 'new'
              ? 'Billing, where payouts go and the team are now yours. Switch to the store from your dashboard to manage it.'
              : 'You stay in the store as an admin. Billing, where payouts go and the team are now theirs.',
          ],
          action: { label: 'Open my dashboard', url: new URL('/dashboard', publicUrl).toString() },
          footnote:
            'If you did not expect this, sign in, change your password and contact us by replying to this e-mail.',
        }),
      };
    },
    contact(to: string, sender: { name: string; email: string; message: string }): MailMessage {
      return {
        to,
        replyTo: sender.email,
        ...renderEmail({
          subject: `Contact form: ${sender.name}`,
          heading: `New message from ${sender.name} <${sender.email}>`,
          paragraphs: sender.message.split(/\n{2,}/),
          footnote:
            'Sent from the contact form on the Lockdrop website. Reply to this e-mail to answer.',
        }),
      };
    },
  };
}

export type Emails = ReturnType<typeof createEmails>;

import type { Pool } from '@lockdrop/db';
import { createMailboxMailer } from './mailbox.js';
import { createSmtpMailer } from './smtp.js';

/** One e-mail, already rendered (see `renderEmail`). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
}

export interface Mailer {
  /** `smtp` delivers for real; `mailbox` keeps messages in the database for `/dev/mailbox`. */
  readonly kind: 'smtp' | 'mailbox';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…`; unset means the development mailbox. */
  smtpUrl?: string;
  from: string;
  /** Where the development mailbox lives (its own `mailbox` schema in this database). */
  pool: Pool;
}

/** SMTP when a URL is configured, otherwise the database mailbox any service can share. */
export async function createMailer({ smtpUrl, from, pool }: MailerOptions): Promise<Mailer> {
  if (smtpUrl) return createSmtpMailer(smtpUrl, from);
  return createMailboxMailer(pool, from);
}

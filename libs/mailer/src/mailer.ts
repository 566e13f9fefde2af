import type { Pool } from '@lockdrop/db';
import { z } from 'zod';
import { createMailboxMailer } from './mailbox.js';
import { createSmtpMailer, type DkimOptions } from './smtp.js';
import type { Mailer } from './types.js';

export interface MailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…`; unset means the development mailbox. */
  smtpUrl?: string;
  from: string;
  /** Where the development mailbox lives (its own `mailbox` schema in this database). */
  pool: Pool;
  /** Signs SMTP mail when set (see `dkimFromEnv`). */
  dkim?: DkimOptions;
}

/** SMTP when a URL is configured, otherwise the database mailbox any service can share. */
export async function createMailer({ smtpUrl, from, pool, dkim }: MailerOptions): Promise<Mailer> {
  if (smtpUrl) return createSmtpMailer(smtpUrl, from, dkim);
  return createMailboxMailer(pool, from);
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** The env every sending service reads (spread into its config schema, beside its MAIL_FROM). */
export const mailEnv = {
  /** `smtp://user:pass@host:587` or `smtps://…`; unset: the development mailbox. */
  SMTP_URL: optionalText,
  /** DKIM signing (all three or none): d=, s= and the PEM private key (`\n` allowed for newlines). */
  SMTP_DKIM_DOMAIN: optionalText,
  SMTP_DKIM_SELECTOR: optionalText,
  SMTP_DKIM_PRIVATE_KEY: optionalText,
};

/**
 * The DKIM settings a service reads from `SMTP_DKIM_DOMAIN`, `SMTP_DKIM_SELECTOR` and
 * `SMTP_DKIM_PRIVATE_KEY` (all three, or none: unsigned).
 */
export function dkimFromEnv(config: {
  SMTP_DKIM_DOMAIN?: string;
  SMTP_DKIM_SELECTOR?: string;
  SMTP_DKIM_PRIVATE_KEY?: string;
}): DkimOptions | undefined {
  const { SMTP_DKIM_DOMAIN, SMTP_DKIM_SELECTOR, SMTP_DKIM_PRIVATE_KEY } = config;
  if (!SMTP_DKIM_DOMAIN || !SMTP_DKIM_SELECTOR || !SMTP_DKIM_PRIVATE_KEY) return undefined;
  return {
    domainName: SMTP_DKIM_DOMAIN,
    keySelector: SMTP_DKIM_SELECTOR,
    // Env files carry a PEM on one line with literal \n.
    privateKey: SMTP_DKIM_PRIVATE_KEY.replaceAll('\\n', '\n'),
  };
}

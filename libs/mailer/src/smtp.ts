import nodemailer from 'nodemailer';
import type { Mailer } from './types.js';

/** DKIM signing of every message (the public key is published at `<selector>._domainkey.<domain>`). */
export interface DkimOptions {
  domainName: string;
  keySelector: string;
  /** PEM, RSA or Ed25519. */
  privateKey: string;
}

/**
 * Messages share a few open connections (nodemailer's pool) unless the URL says `pool=false`:
 * a connection per message costs a TCP handshake — and with `smtps://` a TLS one — for each
 * receipt, which in a flash sale is most of what sending costs.
 */
export function pooledSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return url.toString();
}

export function createSmtpMailer(smtpUrl: string, from: string, dkim?: DkimOptions): Mailer {
  const transport = nodemailer.createTransport(pooledSmtpUrl(smtpUrl), dkim ? { dkim } : {});
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    async close() {
      transport.close();
    },
  };
}

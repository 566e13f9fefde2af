import nodemailer from 'nodemailer';
import type { Mailer } from './types.js';

/** DKIM signing of every message (the public key is published at `<selector>._domainkey.<domain>`). */
export interface DkimOptions {
  domainName: string;
  keySelector: string;
  /** PEM, RSA or Ed25519. */
  privateKey: string;
}

export function createSmtpMailer(smtpUrl: string, from: string, dkim?: DkimOptions): Mailer {
  const transport = nodemailer.createTransport(smtpUrl, dkim ? { dkim } : {});
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

// What every transport implements; the factory that picks one lives in mailer.ts.

/** One e-mail, already rendered (see `renderEmail`). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Extra header fields, e.g. `List-Unsubscribe` (see `unsubscribeHeaders`). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** `smtp` delivers for real; `mailbox` keeps messages in the database for `/dev/mailbox`. */
  readonly kind: 'smtp' | 'mailbox';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

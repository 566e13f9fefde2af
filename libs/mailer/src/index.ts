export { createMailer, dkimFromEnv, mailEnv, type MailerOptions } from './mailer.js';
export { type Mailer, type MailMessage } from './types.js';
export { type DkimOptions } from './smtp.js';
export { openMailbox, mailboxSchema, type MailboxStore, type StoredMail } from './mailbox.js';
export { renderMailboxPage } from './mailbox-page.js';
export {
  renderEmail,
  unsubscribeHeaders,
  type EmailContent,
  type RenderedEmail,
} from './template.js';
export {
  mailOutboxMigrations,
  enqueueBulkMail,
  enqueueMail,
  enqueueMails,
  startMailRelay,
  type MailRelay,
} from './outbox.js';

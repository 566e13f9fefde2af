import type { Pool } from '@lockdrop/db';
import { enqueueMail, type MailRelay } from '@lockdrop/mailer';
import { contactMessageSchema, type ContactMessage } from '@lockdrop/contracts';
import type { Client } from './account.js';
import type { Emails } from './emails.js';
import type { Throttle } from './throttle.js';

export { contactMessageSchema, type ContactMessage };

export function createContactService(deps: {
  pool: Pool;
  throttle: Throttle;
  emails: Emails;
  mailRelay: Pick<MailRelay, 'wake'>;
  inbox: string;
}) {
  return {
    async send(message: ContactMessage, client: Client): Promise<void> {
      await deps.throttle.hit(`contact:ip:${client.ip}`, deps.throttle.limits.contactPerIp);
      await enqueueMail(deps.pool, deps.emails.contact(deps.inbox, message));
      deps.mailRelay.wake();
    },
  };
}

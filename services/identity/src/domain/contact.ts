import type { Pool } from '@lockdrop/db';
import { enqueueMail, type MailRelay } from '@lockdrop/mailer';
import { z } from 'zod';
import type { Client } from './account.js';
import type { Emails } from './emails.js';
import type { Throttle } from './throttle.js';

/** The same rules as the form on /contact. */
export const contactMessageSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Please enter your name')
    .max(100, 'Please keep your name under 100 characters'),
  email: z.email('Please enter a valid e-mail address'),
  message: z
    .string()
    .trim()
    .min(10, 'Please write at least 10 characters')
    .max(5000, 'Please keep your message under 5000 characters'),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

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

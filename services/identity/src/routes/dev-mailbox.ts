import type { HttpServer } from '@lockdrop/http';
import { renderMailboxPage, type MailboxStore } from '@lockdrop/mailer';

/** Registered only when no SMTP server is configured and not in production (see app.ts). */
export function devMailboxRoutes(app: HttpServer, { mailbox }: { mailbox: MailboxStore }): void {
  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderMailboxPage(await mailbox.list({ limit: 100 }))),
  );
}

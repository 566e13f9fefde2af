import type { HttpServer } from '@lockdrop/http';
import { contactMessageSchema, type createContactService } from '../domain/contact.js';
import { clientOf } from './http.js';
import { statusSchema } from './schemas.js';

export function contactRoutes(
  app: HttpServer,
  { contact }: { contact: ReturnType<typeof createContactService> },
): void {
  app.post(
    '/api/contact',
    { schema: { tags: ['contact'], body: contactMessageSchema, response: { 202: statusSchema } } },
    async (request, reply) => {
      await contact.send(request.body, clientOf(request));
      return reply.status(202).send({ status: 'sent' });
    },
  );
}

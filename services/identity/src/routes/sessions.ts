import { sessionListSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { SessionService } from '../domain/sessions.js';
import { sessionOf, type SessionGuard } from './current-session.js';
import { presentSessions } from './schemas.js';

export function sessionRoutes(
  app: HttpServer,
  { sessions, guard }: { sessions: SessionService; guard: SessionGuard },
): void {
  const tags = ['auth'];

  app.get(
    '/api/auth/sessions',
    { schema: { tags, response: { 200: sessionListSchema } }, preHandler: guard.requireSession },
    async (request) => {
      const { userId, sessionId } = sessionOf(request);
      return presentSessions(await sessions.list(userId), sessionId);
    },
  );

  app.delete(
    '/api/auth/sessions/:sessionId',
    {
      schema: { tags, params: z.object({ sessionId: z.uuid() }) },
      preHandler: guard.requireSession,
    },
    async (request, reply) => {
      await sessions.revoke(sessionOf(request).userId, request.params.sessionId);
      return reply.status(204).send();
    },
  );
}

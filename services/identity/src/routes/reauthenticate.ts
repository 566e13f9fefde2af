import {
  reauthenticateRequestSchema,
  reauthenticationOptionsSchema,
  sessionResponseSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { ReauthenticationService } from '../domain/reauthentication.js';
import { sessionOf, type SessionGuard } from './current-session.js';
import { setSessionCookies } from './http.js';
import { presentIssued } from './schemas.js';

/**
 * Re-authentication on the current session (issue 30): services that guard an action with
 * `requireRecentAuth` answer 403 `reauthentication_required`; the client asks here which proof
 * to collect, posts it, gets an access cookie with a fresh `auth_time`, and retries.
 */
export function reauthenticateRoutes(
  app: HttpServer,
  { reauthentication, guard }: { reauthentication: ReauthenticationService; guard: SessionGuard },
): void {
  const tags = ['auth'];
  // The person proves who they are, whichever store their session acts for: an owner who
  // received a store by transfer re-authenticates there before changing where payouts go.
  const preHandler = guard.requirePerson;

  app.get(
    '/api/auth/reauthenticate',
    { preHandler, schema: { tags, response: { 200: reauthenticationOptionsSchema } } },
    async (request) => ({ method: await reauthentication.methodOf(sessionOf(request).userId) }),
  );

  app.post(
    '/api/auth/reauthenticate/code',
    {
      preHandler,
      schema: { tags, response: { 202: z.object({ status: z.literal('sent') }) } },
    },
    async (request, reply) => {
      await reauthentication.sendEmailedCode(sessionOf(request).userId);
      return reply.status(202).send({ status: 'sent' as const });
    },
  );

  app.post(
    '/api/auth/reauthenticate',
    {
      preHandler,
      schema: { tags, body: reauthenticateRequestSchema, response: { 200: sessionResponseSchema } },
    },
    async (request, reply) => {
      const { userId, sessionId } = sessionOf(request);
      const issued = await reauthentication.reauthenticate(userId, sessionId, request.body);
      setSessionCookies(request, reply, issued);
      return presentIssued(issued);
    },
  );
}

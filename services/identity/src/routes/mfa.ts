import { mfaCodeRequestSchema, mfaEnrollmentSchema, mfaStatusSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { MfaService } from '../domain/mfa.js';
import { sessionOf, type SessionGuard } from './current-session.js';

export function mfaRoutes(
  app: HttpServer,
  { mfa, guard }: { mfa: MfaService; guard: SessionGuard },
): void {
  const tags = ['mfa'];
  const preHandler = guard.requireSession;

  app.get(
    '/api/auth/mfa',
    {
      schema: { tags, response: { 200: mfaStatusSchema } },
      preHandler,
    },
    async (request) => mfa.status(sessionOf(request).userId),
  );

  app.post(
    '/api/auth/mfa/enroll',
    {
      schema: {
        tags,
        response: {
          200: mfaEnrollmentSchema,
        },
      },
      preHandler,
    },
    async (request) => mfa.enroll(sessionOf(request).userId),
  );

  app.post(
    '/api/auth/mfa/verify',
    {
      schema: {
        tags,
        body: mfaCodeRequestSchema,
        response: { 200: z.object({ enabled: z.boolean() }) },
      },
      preHandler,
    },
    async (request) => {
      await mfa.verifyEnrollment(sessionOf(request).userId, request.body.code);
      return { enabled: true };
    },
  );

  app.post(
    '/api/auth/mfa/unenroll',
    { schema: { tags, body: mfaCodeRequestSchema }, preHandler },
    async (request, reply) => {
      await mfa.unenroll(sessionOf(request).userId, request.body.code);
      return reply.status(204).send();
    },
  );
}

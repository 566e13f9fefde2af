import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { MfaService } from '../domain/mfa.js';
import { sessionOf, type SessionGuard } from './current-session.js';

const codeBody = z.object({ code: z.string().min(1, 'Please enter the 6-digit code') });

export function mfaRoutes(
  app: HttpServer,
  { mfa, guard }: { mfa: MfaService; guard: SessionGuard },
): void {
  const tags = ['mfa'];
  const preHandler = guard.requireSession;

  app.get(
    '/api/auth/mfa',
    {
      schema: { tags, response: { 200: z.object({ enabled: z.boolean(), pending: z.boolean() }) } },
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
          200: z.object({ secret: z.string(), otpauthUri: z.string(), qrCodeDataUrl: z.string() }),
        },
      },
      preHandler,
    },
    async (request) => mfa.enroll(sessionOf(request).userId),
  );

  app.post(
    '/api/auth/mfa/verify',
    {
      schema: { tags, body: codeBody, response: { 200: z.object({ enabled: z.boolean() }) } },
      preHandler,
    },
    async (request) => {
      await mfa.verifyEnrollment(sessionOf(request).userId, request.body.code);
      return { enabled: true };
    },
  );

  app.post(
    '/api/auth/mfa/unenroll',
    { schema: { tags, body: codeBody }, preHandler },
    async (request, reply) => {
      await mfa.unenroll(sessionOf(request).userId, request.body.code);
      return reply.status(204).send();
    },
  );
}

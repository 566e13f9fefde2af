import { assertRecentAuth } from '@lockdrop/auth';
import {
  mfaCodeRequestSchema,
  mfaEnrollmentSchema,
  mfaRecoveryCodesSchema,
  mfaStatusSchema,
  mfaVerifiedSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import type { MfaService } from '../domain/mfa.js';
import { sessionOf, type SessionGuard } from './current-session.js';

export function mfaRoutes(
  app: HttpServer,
  {
    mfa,
    guard,
    reauthMaxAgeSeconds,
  }: { mfa: MfaService; guard: SessionGuard; reauthMaxAgeSeconds: number },
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

  // Turning MFA on answers the ten recovery codes: the only time they are shown.
  app.post(
    '/api/auth/mfa/verify',
    {
      schema: {
        tags,
        body: mfaCodeRequestSchema,
        response: { 200: mfaVerifiedSchema },
      },
      preHandler,
    },
    async (request) => {
      const { recoveryCodes } = await mfa.verifyEnrollment(
        sessionOf(request).userId,
        request.body.code,
      );
      return { enabled: true as const, recoveryCodes };
    },
  );

  // A new set replaces the old one. Codes are as good as the authenticator, so a session that
  // has not proved who it is recently (a stolen one) gets 403 reauthentication_required.
  app.post(
    '/api/auth/mfa/recovery-codes',
    { schema: { tags, response: { 200: mfaRecoveryCodesSchema } }, preHandler },
    async (request) => {
      const session = sessionOf(request);
      assertRecentAuth(session.authTime.getTime() / 1000, reauthMaxAgeSeconds);
      return mfa.regenerateRecoveryCodes(session.userId);
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

import {
  anonymousSessionSchema,
  mfaChallengeRequestSchema,
  mfaChallengeResponseSchema,
  mfaChallengeSchema,
  sessionResponseSchema,
  signInRequestSchema,
  signOutScopeSchema,
  signUpRequestSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AccountService } from '../domain/accounts.js';
import { requireAccount } from '../domain/account.js';
import { authErrors } from '../domain/errors.js';
import { accessIn, actingFor } from '../domain/teams.js';
import type { SessionService } from '../domain/sessions.js';
import type { SignInService } from '../domain/sign-in.js';
import type { Pool } from '@lockdrop/db';
import { sessionOf, type SessionGuard } from './current-session.js';
import {
  accessTokenOf,
  clearSessionCookies,
  clientOf,
  refreshTokenOf,
  setSessionCookies,
} from './http.js';
import { presentAccount, presentIssued, statusSchema } from './schemas.js';

interface AuthRouteDeps {
  pool: Pool;
  accounts: AccountService;
  signIn: SignInService;
  sessions: SessionService;
  guard: SessionGuard;
  publicUrl: string;
}

const emailBody = z.object({ email: z.string().optional() });
const tokenBody = z.object({ token: z.string().optional() });

export function authRoutes(
  app: HttpServer,
  { pool, accounts, signIn, sessions, guard, publicUrl }: AuthRouteDeps,
): void {
  const tags = ['auth'];

  /** Rotates the refresh cookie into a new session; a refused token also clears the cookies. */
  const refreshFromCookie = async (request: FastifyRequest, reply: FastifyReply) => {
    const refreshToken = refreshTokenOf(request);
    if (!refreshToken) throw authErrors.sessionMissing();
    try {
      const issued = await sessions.refresh(refreshToken);
      setSessionCookies(request, reply, issued);
      return presentIssued(issued);
    } catch (error) {
      clearSessionCookies(request, reply);
      throw error;
    }
  };

  app.post(
    '/api/auth/sign-up',
    { schema: { tags, body: signUpRequestSchema, response: { 201: sessionResponseSchema } } },
    async (request, reply) => {
      const issued = await accounts.signUp(request.body, clientOf(request), request.id);
      setSessionCookies(request, reply, issued);
      return reply.status(201).send(presentIssued(issued));
    },
  );

  app.post(
    '/api/auth/sign-in',
    {
      schema: {
        tags,
        body: signInRequestSchema,
        response: { 200: z.union([sessionResponseSchema, mfaChallengeSchema]) },
      },
    },
    async (request, reply) => {
      const result = await signIn.signIn(request.body, clientOf(request));
      if (result.kind === 'mfa') {
        return {
          mfaRequired: true as const,
          challengeToken: result.challenge.challengeToken,
          expiresAt: result.challenge.expiresAt.toISOString(),
        };
      }
      setSessionCookies(request, reply, result.session);
      return presentIssued(result.session);
    },
  );

  app.post(
    '/api/auth/mfa/challenge',
    {
      schema: {
        tags,
        body: mfaChallengeRequestSchema,
        response: { 200: mfaChallengeResponseSchema },
      },
    },
    async (request, reply) => {
      const { session, recoveryCodesRemaining } = await signIn.completeChallenge(
        request.body.challengeToken ?? '',
        request.body.code ?? '',
        clientOf(request),
      );
      setSessionCookies(request, reply, session);
      return {
        ...presentIssued(session),
        ...(recoveryCodesRemaining === undefined ? {} : { recoveryCodesRemaining }),
      };
    },
  );

  // The web client asks this on every page load: with an expired access token but a live
  // refresh cookie (sent here: its path is /api/auth) it refreshes instead of answering 401.
  app.get(
    '/api/auth/session',
    { schema: { tags, response: { 200: sessionResponseSchema.or(anonymousSessionSchema) } } },
    async (request, reply) => {
      // Nothing to check and nothing to refresh: say "nobody" (200) rather than 401, so a
      // visitor's console stays clean. Any credential, good or not, goes the usual way.
      if (!accessTokenOf(request) && !refreshTokenOf(request)) return { user: null };
      const current = await guard.resolve(request);
      if (current) {
        const account = await requireAccount(pool, current.userId);
        const answer = presentAccount(account, {
          id: current.sessionId,
          expiresAt: current.accessExpiresAt,
          persistent: current.persistent,
        });
        if (!current.acting) return answer;
        const { storeId, role } = current.acting;
        // The token's role; whether it is read-only (past the seats) is the store's now.
        const readOnly = (await accessIn(pool, storeId, current.userId))?.readOnly ?? false;
        return { ...answer, acting: await actingFor(pool, storeId, { role, readOnly }) };
      }
      return refreshFromCookie(request, reply);
    },
  );

  app.post(
    '/api/auth/refresh',
    { schema: { tags, response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      return refreshFromCookie(request, reply);
    },
  );

  app.post(
    '/api/auth/sign-out',
    {
      schema: {
        tags,
        body: z.object({ scope: signOutScopeSchema.default('local') }).optional(),
      },
    },
    async (request, reply) => {
      const scope = request.body?.scope ?? 'local';
      const current = await guard.resolve(request);
      const refreshToken = refreshTokenOf(request);
      const sessionId =
        current?.sessionId ??
        (refreshToken ? await sessions.sessionOfRefreshToken(refreshToken) : null);
      await sessions.signOut(current?.userId ?? null, sessionId, scope);
      if (scope !== 'others') clearSessionCookies(request, reply);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/password',
    {
      schema: {
        tags,
        body: z.object({
          currentPassword: z.string().optional(),
          newPassword: z.string().optional(),
        }),
      },
      preHandler: guard.requireSession,
    },
    async (request, reply) => {
      const { userId, sessionId } = sessionOf(request);
      await accounts.changePassword(userId, sessionId, request.body);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/verify-email',
    { schema: { tags, body: tokenBody, response: { 200: statusSchema } } },
    async (request) => {
      await accounts.verifyEmail(request.body.token ?? '', request.id);
      return { status: 'verified' };
    },
  );

  // The link in the e-mail: verifies, then lands on the web app's e-mail-verified screen.
  app.get(
    '/api/auth/verify-email',
    { schema: { tags, querystring: z.object({ token: z.string().optional() }) } },
    async (request, reply) => {
      const target = new URL('/email-verified', publicUrl);
      try {
        await accounts.verifyEmail(request.query.token ?? '', request.id);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'invalid_token' && code !== 'token_expired') throw error;
        target.searchParams.set('error', code);
      }
      return reply.redirect(target.toString(), 303);
    },
  );

  app.post(
    '/api/auth/resend-verification',
    { schema: { tags, body: emailBody.optional(), response: { 202: statusSchema } } },
    async (request, reply) => {
      let email = request.body?.email;
      if (!email) {
        const current = await guard.resolve(request);
        if (!current) throw authErrors.missingFields();
        email = (await requireAccount(pool, current.userId)).user.email;
      }
      await accounts.resendVerification(email);
      return reply.status(202).send({ status: 'sent' });
    },
  );

  app.post(
    '/api/auth/forgot-password',
    { schema: { tags, body: emailBody, response: { 202: statusSchema } } },
    async (request, reply) => {
      await accounts.requestPasswordReset(request.body.email ?? '', clientOf(request));
      return reply.status(202).send({ status: 'sent' });
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        tags,
        body: z.object({ token: z.string().optional(), password: z.string().optional() }),
        response: { 200: statusSchema },
      },
    },
    async (request, reply) => {
      await accounts.resetPassword(
        request.body.token ?? '',
        request.body.password ?? '',
        clientOf(request),
        request.id,
      );
      clearSessionCookies(request, reply);
      return { status: 'password_reset' };
    },
  );
}

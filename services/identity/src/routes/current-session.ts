import type { FastifyReply, FastifyRequest } from 'fastify';
import { authErrors } from '../domain/errors.js';
import type { SessionService } from '../domain/sessions.js';
import type { KeyRing } from '../keys/key-ring.js';
import { accessTokenOf } from './http.js';

export interface CurrentSession {
  userId: string;
  sessionId: string;
  persistent: boolean;
  accessExpiresAt: Date;
  /** When the person last proved who they are on this session (the row's, not the token's copy). */
  authTime: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `requireSession` preHandler of identity's own routes. */
    currentSession: CurrentSession | null;
  }
}

/**
 * Identity checks more than other services: besides the token's signature and expiry, its
 * session must still be live, so signing out (anywhere) takes effect here at once.
 */
export function createSessionGuard(keys: KeyRing, sessions: SessionService) {
  const resolve = async (request: FastifyRequest): Promise<CurrentSession | null> => {
    const token = accessTokenOf(request);
    if (!token) return null;
    const verified = await keys.verify(token).catch(() => null);
    if (!verified) return null;
    const session = await sessions.activeSession(verified.sessionId);
    if (!session || session.userId !== verified.userId) return null;
    return {
      userId: verified.userId,
      sessionId: verified.sessionId,
      persistent: session.persistent,
      accessExpiresAt: verified.expiresAt,
      authTime: session.authTime,
    };
  };

  return {
    resolve,
    /** preHandler: 401 'Auth session missing!' unless a live session is presented. */
    async requireSession(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const current = await resolve(request);
      if (!current) throw authErrors.sessionMissing();
      request.currentSession = current;
    },
  };
}

export type SessionGuard = ReturnType<typeof createSessionGuard>;

/** The session a `requireSession` route runs under. */
export function sessionOf(request: FastifyRequest): CurrentSession {
  if (!request.currentSession) throw authErrors.sessionMissing();
  return request.currentSession;
}

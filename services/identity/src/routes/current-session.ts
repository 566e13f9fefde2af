import { NOT_ALLOWED_FOR_ROLE, assertActorMay } from '@lockdrop/auth';
import type { StoreRight, StoreRole } from '@lockdrop/contracts';
import { AppError } from '@lockdrop/http';
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
  /** The store the token acts for and the person's role there (issue 28); `userId` stays the person. */
  acting: { storeId: string; role: StoreRole } | null;
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
    if (!session) return null;
    // An acting token is the session's person acting for the store the session points at now:
    // one minted before a switch back (or a removal) no longer stands for the session.
    const person = verified.actor ? verified.actor.id : verified.userId;
    if (session.userId !== person) return null;
    // (A former owner's session acts for the account's own store without pointing at it.)
    if (verified.actor && (session.actingStoreId ?? session.userId) !== verified.userId)
      return null;
    return {
      userId: person,
      sessionId: verified.sessionId,
      persistent: session.persistent,
      accessExpiresAt: verified.expiresAt,
      authTime: session.authTime,
      acting: verified.actor ? { storeId: verified.userId, role: verified.actor.role } : null,
    };
  };

  const switchBack = (role: StoreRole) =>
    new AppError(NOT_ALLOWED_FOR_ROLE, 403, 'Switch back to your own account to do this', {
      role,
    });

  return {
    resolve,
    /**
     * preHandler: 401 'Auth session missing!' unless a live session is presented. Identity's
     * routes are the person's own (profile, password, MFA): a token acting for another store is
     * refused with 403, the default deny libs/auth applies elsewhere. A former owner working in
     * the store their account is (after a transfer) is on their own account here.
     */
    async requireSession(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const current = await resolve(request);
      if (!current) throw authErrors.sessionMissing();
      if (current.acting && current.acting.storeId !== current.userId)
        throw switchBack(current.acting.role);
      request.currentSession = current;
    },
    /**
     * preHandler of what speaks for the whole store although it lives in identity (API keys):
     * the account the store is, or a person acting for it whose role has `right` (libs/auth's
     * one table: admin and owner, issue 28) — refused like every service's default deny.
     * Routes act on `storeOf(session)`, so what they make is the store's, not the member's.
     */
    requireStoreRight(right: StoreRight) {
      return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
        const current = await resolve(request);
        if (!current) throw authErrors.sessionMissing();
        if (current.acting) assertActorMay(current.acting.role, right);
        request.currentSession = current;
      };
    },
    /**
     * preHandler of deleting the account the store is: its holder on their own account, never
     * acting (a former owner acts as admin; a new owner's own account is another one).
     */
    async requireAccountHolder(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const current = await resolve(request);
      if (!current) throw authErrors.sessionMissing();
      if (current.acting) throw switchBack(current.acting.role);
      request.currentSession = current;
    },
    /** preHandler of the team routes: the person, acting for a store or not. */
    async requirePerson(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const current = await resolve(request);
      if (!current) throw authErrors.sessionMissing();
      request.currentSession = current;
    },
  };
}

export type SessionGuard = ReturnType<typeof createSessionGuard>;

/** The store a session works for: the one it acts for, or the person's own account. */
export function storeOf(session: CurrentSession): string {
  return session.acting?.storeId ?? session.userId;
}

/** The session a `requireSession` route runs under. */
export function sessionOf(request: FastifyRequest): CurrentSession {
  if (!request.currentSession) throw authErrors.sessionMissing();
  return request.currentSession;
}

import { randomUUID } from 'node:crypto';
import type { Acting } from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import * as sessions from '../db/sessions.repo.js';
import type { KeyRing } from '../keys/key-ring.js';
import { requireAccount, type Account, type Client } from './account.js';
import { authErrors } from './errors.js';
import { hashToken, newToken } from './secrets.js';
import { accessIn, actingFor, roleIn, teamErrors } from './teams.js';

/** "Remember me for 30 days" (ARCHITECTURE §4). */
export const PERSISTENT_SESSION_SECONDS = 30 * 24 * 60 * 60;
/** A browser-session sign-in lives while it is used: it ends a day after its last refresh. */
export const BROWSER_SESSION_IDLE_SECONDS = 24 * 60 * 60;

export interface IssuedSession {
  account: Account;
  sessionId: string;
  persistent: boolean;
  accessToken: string;
  accessExpiresAt: Date;
  /** Null when a just-rotated token was presented again within the grace period: keep the newer cookie. */
  refreshToken: string | null;
  sessionExpiresAt: Date;
  /** The store the access token acts for (issue 28), null for the person's own account. */
  acting: Acting | null;
}

export interface SessionService {
  /** Opens a session (a new refresh-token family) inside the caller's transaction. */
  open(
    tx: PoolClient,
    userId: string,
    options: { persistent: boolean; client: Client },
  ): Promise<IssuedSession>;
  refresh(refreshToken: string): Promise<IssuedSession>;
  /**
   * The person proved who they are again on this session: its `auth_time` becomes now and a
   * new access token carries it (the refresh token stays as it is).
   */
  reauthenticated(userId: string, sessionId: string): Promise<IssuedSession>;
  /** The session id of a valid refresh token, for sign-out when the access token has expired. */
  sessionOfRefreshToken(refreshToken: string): Promise<string | null>;
  /** The access token's session, if it is still live (not signed out, not expired). */
  activeSession(sessionId: string): Promise<sessions.Session | null>;
  list(userId: string): Promise<sessions.Session[]>;
  /**
   * Points the session at a store the person belongs to (or back at their own account when
   * `storeId` is theirs) and issues the access token for it; refresh keeps it there while the
   * membership lasts.
   */
  act(userId: string, sessionId: string, storeId: string): Promise<IssuedSession>;
  revoke(userId: string, sessionId: string): Promise<void>;
  signOut(userId: string | null, sessionId: string | null, scope: SignOutScope): Promise<void>;
}

export type SignOutScope = 'local' | 'global' | 'others';

type RefreshOutcome =
  { kind: 'issued'; session: IssuedSession } | { kind: 'reused' } | { kind: 'invalid' | 'expired' };

export function createSessionService({
  pool,
  keys,
  reuseGraceSeconds,
}: {
  pool: Pool;
  keys: KeyRing;
  reuseGraceSeconds: number;
}): SessionService {
  const issue = async (
    tx: PoolClient,
    session: sessions.Session,
    refreshToken: string | null,
  ): Promise<IssuedSession> => {
    const account = await requireAccount(tx, session.userId);
    // Acting for a store: checked again at every issue (refresh too), so a removed member's
    // session falls back to their own account instead of minting another acting token.
    let storeId = session.actingStoreId ?? session.userId;
    let storeAccess = await accessIn(tx, storeId, session.userId);
    if (!storeAccess && storeId !== session.userId) {
      await sessions.setActingStore(tx, session.id, session.userId, null);
      storeId = session.userId;
      storeAccess = await accessIn(tx, storeId, session.userId);
    }
    // The account's own store speaks with a plain token while the account owns it; after a
    // transfer, the former owner acts for it with their role there, as any member.
    if (!storeAccess) throw teamErrors.notAMember();
    const acting =
      storeId === session.userId && storeAccess.role === 'owner'
        ? null
        : await actingFor(tx, storeId, storeAccess);
    const subject = acting ? await requireAccount(tx, acting.storeId) : account;
    const access = await keys.sign({
      userId: subject.user.id,
      sessionId: session.id,
      email: subject.user.email,
      emailVerified: subject.user.emailVerified,
      plan: subject.profile.plan,
      authTime: session.authTime,
      ...(acting ? { actor: { id: account.user.id, role: acting.role } } : {}),
    });
    return {
      acting,
      account,
      sessionId: session.id,
      persistent: session.persistent,
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      refreshToken,
      sessionExpiresAt: session.expiresAt,
    };
  };

  const rotate = async (tx: PoolClient, sessionId: string): Promise<string> => {
    const refresh = newToken();
    await sessions.insertRefreshToken(tx, sessionId, refresh.hash);
    return refresh.token;
  };

  return {
    async open(tx, userId, { persistent, client }) {
      const session = await sessions.insertSession(tx, {
        id: randomUUID(),
        userId,
        persistent,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        ip: client.ip,
        lifetimeSeconds: persistent ? PERSISTENT_SESSION_SECONDS : BROWSER_SESSION_IDLE_SECONDS,
      });
      return issue(tx, session, await rotate(tx, session.id));
    },

    async refresh(refreshToken) {
      const tokenHash = hashToken(refreshToken);
      // The revocation on reuse must commit, so the outcome is decided inside and thrown outside.
      const outcome = await withTransaction(pool, async (tx): Promise<RefreshOutcome> => {
        const presented = await sessions.findRefreshTokenForUpdate(tx, tokenHash);
        if (!presented || presented.session.revokedAt) return { kind: 'invalid' };
        if (presented.sessionExpired) return { kind: 'expired' };
        if (presented.rotatedSecondsAgo !== null) {
          if (presented.rotatedSecondsAgo <= reuseGraceSeconds) {
            // Two tabs refreshing at once: the loser gets an access token, the winner's refresh token stands.
            return { kind: 'issued', session: await issue(tx, presented.session, null) };
          }
          // A rotated token came back: it was stolen, or the thief already used its successor.
          await sessions.revokeSession(tx, presented.session.id, 'refresh_token_reused');
          return { kind: 'reused' };
        }
        await sessions.markRotated(tx, tokenHash);
        const session = await sessions.touchSession(
          tx,
          presented.session.id,
          BROWSER_SESSION_IDLE_SECONDS,
        );
        return { kind: 'issued', session: await issue(tx, session, await rotate(tx, session.id)) };
      });
      if (outcome.kind === 'issued') return outcome.session;
      if (outcome.kind === 'reused') throw authErrors.refreshTokenReused();
      throw authErrors.sessionExpired();
    },

    reauthenticated: (userId, sessionId) =>
      withTransaction(pool, async (tx) => {
        const session = await sessions.markReauthenticated(tx, sessionId, userId);
        if (!session) throw authErrors.sessionMissing();
        return issue(tx, session, null);
      }),

    sessionOfRefreshToken: (refreshToken) =>
      sessions.findSessionIdByRefreshToken(pool, hashToken(refreshToken)),

    activeSession: (sessionId) => sessions.findActiveSession(pool, sessionId),
    list: (userId) => sessions.listActiveSessions(pool, userId),

    act: (userId, sessionId, storeId) =>
      withTransaction(pool, async (tx) => {
        const own = storeId === userId;
        if (!own && !(await roleIn(tx, storeId, userId))) throw teamErrors.notAMember();
        const session = await sessions.setActingStore(tx, sessionId, userId, own ? null : storeId);
        if (!session) throw authErrors.sessionMissing();
        return issue(tx, session, null);
      }),

    async revoke(userId, sessionId) {
      if (!(await sessions.revokeSession(pool, sessionId, 'revoked', userId)))
        throw authErrors.sessionNotFound();
    },

    async signOut(userId, sessionId, scope) {
      if (scope === 'local') {
        if (sessionId) await sessions.revokeSession(pool, sessionId, 'signed_out');
        return;
      }
      if (!userId || (scope === 'others' && !sessionId)) throw authErrors.sessionMissing();
      await sessions.revokeUserSessions(
        pool,
        userId,
        `signed_out_${scope}`,
        scope === 'others' ? (sessionId ?? undefined) : undefined,
      );
    },
  };
}

import type { Queryable } from '@lockdrop/db';

export interface Session {
  id: string;
  userId: string;
  persistent: boolean;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** When the person last proved who they are on this session (sign-in or re-authentication). */
  authTime: Date;
  /** The store this session acts for (issue 28), null while it is the person's own account. */
  actingStoreId: string | null;
}

interface SessionRow {
  id: string;
  user_id: string;
  persistent: boolean;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  auth_time: Date;
  acting_store_id: string | null;
}

const toSession = (row: SessionRow): Session => ({
  id: row.id,
  userId: row.user_id,
  persistent: row.persistent,
  userAgent: row.user_agent,
  ip: row.ip,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  authTime: row.auth_time,
  actingStoreId: row.acting_store_id,
});

export async function insertSession(
  db: Queryable,
  session: {
    id: string;
    userId: string;
    persistent: boolean;
    userAgent: string | null;
    ip: string | null;
    lifetimeSeconds: number;
  },
): Promise<Session> {
  const { rows } = await db.query<SessionRow>(
    `INSERT INTO sessions (id, user_id, persistent, user_agent, ip, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) RETURNING *`,
    [
      session.id,
      session.userId,
      session.persistent,
      session.userAgent,
      session.ip,
      session.lifetimeSeconds,
    ],
  );
  return toSession(rows[0]!);
}

export async function insertRefreshToken(
  db: Queryable,
  sessionId: string,
  tokenHash: string,
): Promise<void> {
  await db.query('INSERT INTO refresh_tokens (token_hash, session_id) VALUES ($1, $2)', [
    tokenHash,
    sessionId,
  ]);
}

export interface PresentedRefreshToken {
  session: Session;
  /** Seconds since this token was rotated; null while it is the family's current token. */
  rotatedSecondsAgo: number | null;
  sessionExpired: boolean;
}

/** The token's session, locked so concurrent refreshes of one family run one after the other. */
export async function findRefreshTokenForUpdate(
  db: Queryable,
  tokenHash: string,
): Promise<PresentedRefreshToken | null> {
  const { rows } = await db.query<
    SessionRow & { rotated_seconds_ago: number | null; session_expired: boolean }
  >(
    `SELECT s.*, extract(epoch FROM now() - t.rotated_at)::float8 AS rotated_seconds_ago,
            s.expires_at <= now() AS session_expired
     FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id
     WHERE t.token_hash = $1 FOR UPDATE OF s`,
    [tokenHash],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    session: toSession(row),
    rotatedSecondsAgo: row.rotated_seconds_ago,
    sessionExpired: row.session_expired,
  };
}

export async function findSessionIdByRefreshToken(
  db: Queryable,
  tokenHash: string,
): Promise<string | null> {
  const { rows } = await db.query<{ session_id: string }>(
    'SELECT session_id FROM refresh_tokens WHERE token_hash = $1',
    [tokenHash],
  );
  return rows[0]?.session_id ?? null;
}

export async function markRotated(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('UPDATE refresh_tokens SET rotated_at = now() WHERE token_hash = $1', [tokenHash]);
}

/** Records use; a browser-session (non-persistent) session slides its idle expiry forward. */
export async function touchSession(
  db: Queryable,
  sessionId: string,
  idleLifetimeSeconds: number,
): Promise<Session> {
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET last_used_at = now(),
       expires_at = CASE WHEN persistent THEN expires_at ELSE now() + make_interval(secs => $2) END
     WHERE id = $1 RETURNING *`,
    [sessionId, idleLifetimeSeconds],
  );
  return toSession(rows[0]!);
}

/** A fresh proof of identity on a live session of this user; null if it is not live or not theirs. */
export async function markReauthenticated(
  db: Queryable,
  sessionId: string,
  userId: string,
): Promise<Session | null> {
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET auth_time = now(), last_used_at = now()
     WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING *`,
    [sessionId, userId],
  );
  return rows[0] ? toSession(rows[0]) : null;
}

export async function findActiveSession(db: Queryable, sessionId: string): Promise<Session | null> {
  const { rows } = await db.query<SessionRow>(
    'SELECT * FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()',
    [sessionId],
  );
  return rows[0] ? toSession(rows[0]) : null;
}

export async function listActiveSessions(db: Queryable, userId: string): Promise<Session[]> {
  const { rows } = await db.query<SessionRow>(
    `SELECT * FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
     ORDER BY last_used_at DESC`,
    [userId],
  );
  return rows.map(toSession);
}

export async function revokeSession(
  db: Queryable,
  sessionId: string,
  reason: string,
  userId?: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE sessions SET revoked_at = now(), revoked_reason = $2
     WHERE id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR user_id = $3)`,
    [sessionId, reason, userId ?? null],
  );
  return rowCount === 1;
}

/** Revokes every live session of the user, except `keepSessionId` when given. */
export async function revokeUserSessions(
  db: Queryable,
  userId: string,
  reason: string,
  keepSessionId?: string,
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE sessions SET revoked_at = now(), revoked_reason = $2
     WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3)`,
    [userId, reason, keepSessionId ?? null],
  );
  return rowCount ?? 0;
}

/** Points a live session of this person at a store (or back at their own account: null). */
export async function setActingStore(
  db: Queryable,
  sessionId: string,
  userId: string,
  storeId: string | null,
): Promise<Session | null> {
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET acting_store_id = $3, last_used_at = now()
     WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now() RETURNING *`,
    [sessionId, userId, storeId],
  );
  return rows[0] ? toSession(rows[0]) : null;
}

/** A removed member's sessions stop acting for that store (their next refresh is their own). */
export async function clearActingStore(
  db: Queryable,
  storeId: string,
  userId: string,
): Promise<void> {
  await db.query(
    'UPDATE sessions SET acting_store_id = NULL WHERE user_id = $1 AND acting_store_id = $2',
    [userId, storeId],
  );
}

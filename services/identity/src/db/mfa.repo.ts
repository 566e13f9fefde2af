import type { Queryable } from '@lockdrop/db';

export interface MfaFactor {
  secret: string;
  verified: boolean;
  lastUsedStep: number | null;
}

export async function findFactor(
  db: Queryable,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<MfaFactor | null> {
  const { rows } = await db.query<{
    secret: string;
    verified_at: Date | null;
    last_used_step: number | null;
  }>(
    `SELECT secret, verified_at, last_used_step FROM mfa_factors WHERE user_id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [userId],
  );
  const row = rows[0];
  return row
    ? { secret: row.secret, verified: row.verified_at !== null, lastUsedStep: row.last_used_step }
    : null;
}

/** Starts (or restarts) an enrolment; a verified factor is left alone (returns false). */
export async function upsertPendingFactor(
  db: Queryable,
  userId: string,
  secret: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO mfa_factors (user_id, secret) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_used_step = NULL, created_at = now()
       WHERE mfa_factors.verified_at IS NULL`,
    [userId, secret],
  );
  return rowCount === 1;
}

export async function recordFactorUse(
  db: Queryable,
  userId: string,
  step: number,
  options: { verify?: boolean } = {},
): Promise<void> {
  await db.query(
    `UPDATE mfa_factors SET last_used_step = $2,
       verified_at = CASE WHEN $3 THEN coalesce(verified_at, now()) ELSE verified_at END
     WHERE user_id = $1`,
    [userId, step, options.verify ?? false],
  );
}

/**
 * Drops a factor set up before the account's e-mail was proven (by whoever registered an address
 * they may not own). Call it before the address is marked verified by its real owner.
 */
export async function deleteFactorFromBeforeVerification(
  db: Queryable,
  userId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM mfa_factors f USING users u
     WHERE f.user_id = $1 AND u.id = f.user_id
       AND (u.email_verified_at IS NULL OR f.created_at < u.email_verified_at)`,
    [userId],
  );
  return rowCount === 1;
}

export async function deleteFactor(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM mfa_factors WHERE user_id = $1', [userId]);
}

export async function insertChallenge(
  db: Queryable,
  challenge: { tokenHash: string; userId: string; persistent: boolean; lifetimeSeconds: number },
): Promise<Date> {
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO mfa_challenges (token_hash, user_id, persistent, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
    [challenge.tokenHash, challenge.userId, challenge.persistent, challenge.lifetimeSeconds],
  );
  return rows[0]!.expires_at;
}

export interface Challenge {
  userId: string;
  persistent: boolean;
  attempts: number;
  usable: boolean;
  expired: boolean;
}

export async function findChallengeForUpdate(
  db: Queryable,
  tokenHash: string,
): Promise<Challenge | null> {
  const { rows } = await db.query<{
    user_id: string;
    persistent: boolean;
    attempts: number;
    used_at: Date | null;
    expired: boolean;
  }>(
    `SELECT user_id, persistent, attempts, used_at, expires_at <= now() AS expired
     FROM mfa_challenges WHERE token_hash = $1 FOR UPDATE`,
    [tokenHash],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    userId: row.user_id,
    persistent: row.persistent,
    attempts: row.attempts,
    expired: row.expired,
    usable: row.used_at === null && !row.expired,
  };
}

export async function recordChallengeAttempt(
  db: Queryable,
  tokenHash: string,
  succeeded: boolean,
): Promise<void> {
  await db.query(
    `UPDATE mfa_challenges SET attempts = attempts + 1, used_at = CASE WHEN $2 THEN now() ELSE used_at END
     WHERE token_hash = $1`,
    [tokenHash, succeeded],
  );
}

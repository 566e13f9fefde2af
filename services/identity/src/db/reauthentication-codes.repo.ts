import type { Queryable } from '@lockdrop/db';

/** One live code per account: a new one replaces the last (and its spent attempts). */
export async function replaceCode(
  db: Queryable,
  code: { userId: string; codeHash: string; lifetimeSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO reauthentication_codes (user_id, code_hash, expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3))
     ON CONFLICT (user_id) DO UPDATE SET code_hash = EXCLUDED.code_hash,
       expires_at = EXCLUDED.expires_at, attempts = 0, created_at = now()`,
    [code.userId, code.codeHash, code.lifetimeSeconds],
  );
}

export interface StoredCode {
  codeHash: string;
  attempts: number;
  expired: boolean;
}

export async function findCodeForUpdate(db: Queryable, userId: string): Promise<StoredCode | null> {
  const { rows } = await db.query<{ code_hash: string; attempts: number; expired: boolean }>(
    `SELECT code_hash, attempts, expires_at <= now() AS expired
     FROM reauthentication_codes WHERE user_id = $1 FOR UPDATE`,
    [userId],
  );
  const row = rows[0];
  return row ? { codeHash: row.code_hash, attempts: row.attempts, expired: row.expired } : null;
}

export async function countFailedAttempt(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE reauthentication_codes SET attempts = attempts + 1 WHERE user_id = $1', [
    userId,
  ]);
}

export async function deleteCode(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM reauthentication_codes WHERE user_id = $1', [userId]);
}

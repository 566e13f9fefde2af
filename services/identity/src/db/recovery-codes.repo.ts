import type { Queryable } from '@lockdrop/db';

export interface StoredRecoveryCode {
  id: string;
  codeHash: string;
}

/** Replaces the account's whole set: the codes of an older set stop working at once. */
export async function replaceRecoveryCodes(
  db: Queryable,
  userId: string,
  codeHashes: string[],
): Promise<void> {
  await db.query('DELETE FROM mfa_recovery_codes WHERE user_id = $1', [userId]);
  await db.query(
    `INSERT INTO mfa_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`,
    [userId, codeHashes],
  );
}

/** The unused codes, locked: two sign-ins racing with one code cannot both spend it. */
export async function findUnusedCodesForUpdate(
  db: Queryable,
  userId: string,
): Promise<StoredRecoveryCode[]> {
  const { rows } = await db.query<{ id: string; code_hash: string }>(
    `SELECT id, code_hash FROM mfa_recovery_codes
     WHERE user_id = $1 AND used_at IS NULL ORDER BY id FOR UPDATE`,
    [userId],
  );
  return rows.map((row) => ({ id: row.id, codeHash: row.code_hash }));
}

export async function markCodeUsed(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE mfa_recovery_codes SET used_at = now() WHERE id = $1', [id]);
}

export async function countUnusedCodes(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM mfa_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

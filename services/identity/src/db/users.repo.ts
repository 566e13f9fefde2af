import type { Queryable } from '@lockdrop/db';

export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  passwordHash: string | null;
}

interface UserRow {
  id: string;
  email: string;
  email_verified_at: Date | null;
  password_hash: string | null;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  emailVerified: row.email_verified_at !== null,
  passwordHash: row.password_hash,
});

export class EmailTakenError extends Error {}

export async function insertUser(
  db: Queryable,
  user: { id: string; email: string; passwordHash: string | null; emailVerified: boolean },
): Promise<User> {
  try {
    const { rows } = await db.query<UserRow>(
      `INSERT INTO users (id, email, password_hash, email_verified_at)
       VALUES ($1, $2, $3, CASE WHEN $4 THEN now() END) RETURNING *`,
      [user.id, user.email, user.passwordHash, user.emailVerified],
    );
    return toUser(rows[0]!);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new EmailTakenError(user.email);
    throw error;
  }
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | null> {
  const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE email = $1', [email]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findUserById(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<User | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT * FROM users WHERE id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function setPasswordHash(
  db: Queryable,
  userId: string,
  passwordHash: string | null,
): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [
    userId,
    passwordHash,
  ]);
}

/** True when this call verified the address (false when it already was). */
export async function markEmailVerified(db: Queryable, userId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE users SET email_verified_at = now(), updated_at = now() WHERE id = $1 AND email_verified_at IS NULL',
    [userId],
  );
  return rowCount === 1;
}

export async function deleteUser(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM users WHERE id = $1', [userId]);
}

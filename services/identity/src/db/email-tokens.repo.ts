import type { Queryable } from '@lockdrop/db';

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export async function insertEmailToken(
  db: Queryable,
  token: {
    tokenHash: string;
    userId: string;
    purpose: EmailTokenPurpose;
    email: string;
    lifetimeSeconds: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO email_tokens (token_hash, user_id, purpose, email, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [token.tokenHash, token.userId, token.purpose, token.email, token.lifetimeSeconds],
  );
}

export type ConsumedEmailToken =
  { status: 'consumed'; userId: string; email: string } | { status: 'expired' | 'invalid' };

/**
 * Uses a token once: the UPDATE marks it used only if it is unused and unexpired, so two
 * concurrent uses cannot both succeed. Every other token of the same purpose dies with it.
 */
export async function consumeEmailToken(
  db: Queryable,
  tokenHash: string,
  purpose: EmailTokenPurpose,
): Promise<ConsumedEmailToken> {
  const { rows } = await db.query<{
    user_id: string;
    email: string;
    used_now: boolean;
    expired: boolean;
  }>(
    `WITH found AS (
       SELECT token_hash, user_id, email, used_at, expires_at <= now() AS expired
       FROM email_tokens WHERE token_hash = $1 AND purpose = $2
     ), used AS (
       UPDATE email_tokens SET used_at = now()
       WHERE token_hash = (SELECT token_hash FROM found WHERE used_at IS NULL AND NOT expired)
       RETURNING token_hash
     )
     SELECT found.user_id, found.email, found.expired, EXISTS (SELECT 1 FROM used) AS used_now FROM found`,
    [tokenHash, purpose],
  );
  const row = rows[0];
  if (!row) return { status: 'invalid' };
  if (row.used_now) {
    await db.query(
      'UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL',
      [row.user_id, purpose],
    );
    return { status: 'consumed', userId: row.user_id, email: row.email };
  }
  return { status: row.expired ? 'expired' : 'invalid' };
}

import type { Queryable } from '@lockdrop/db';

export async function findIdentityUser(
  db: Queryable,
  provider: string,
  subject: string,
): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM oauth_identities WHERE provider = $1 AND subject = $2',
    [provider, subject],
  );
  return rows[0]?.user_id ?? null;
}

export async function linkIdentity(
  db: Queryable,
  identity: { provider: string; subject: string; userId: string; email: string },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_identities (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, subject) DO NOTHING`,
    [identity.provider, identity.subject, identity.userId, identity.email],
  );
}

export interface OAuthState {
  nonce: string;
  codeVerifier: string;
  redirectTo: string;
  persistent: boolean;
}

export async function insertOAuthState(
  db: Queryable,
  state: OAuthState & { stateHash: string; provider: string; lifetimeSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_states (state_hash, provider, nonce, code_verifier, redirect_to, persistent, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
    [
      state.stateHash,
      state.provider,
      state.nonce,
      state.codeVerifier,
      state.redirectTo,
      state.persistent,
      state.lifetimeSeconds,
    ],
  );
  // Abandoned sign-ins would otherwise pile up.
  await db.query('DELETE FROM oauth_states WHERE expires_at < now()');
}

/** Takes the state out (single use); null when unknown or expired. */
export async function takeOAuthState(
  db: Queryable,
  stateHash: string,
  provider: string,
): Promise<OAuthState | null> {
  const { rows } = await db.query<{
    nonce: string;
    code_verifier: string;
    redirect_to: string;
    persistent: boolean;
  }>(
    `DELETE FROM oauth_states WHERE state_hash = $1 AND provider = $2 AND expires_at > now()
     RETURNING nonce, code_verifier, redirect_to, persistent`,
    [stateHash, provider],
  );
  const row = rows[0];
  return row
    ? {
        nonce: row.nonce,
        codeVerifier: row.code_verifier,
        redirectTo: row.redirect_to,
        persistent: row.persistent,
      }
    : null;
}

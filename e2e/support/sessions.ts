import { createPool } from '@lockdrop/db';
import type { BrowserContext } from 'playwright-core';

/**
 * Makes the browser's session stale the way a stolen refresh cookie would give it: the session's
 * last proof of identity (`auth_time`) an hour old, and no access token, so the next request's
 * token is minted by a refresh carrying that old time. Actions that need a recent sign-in then
 * answer 403 `reauthentication_required`.
 */
export async function makeSessionStale(context: BrowserContext, email: string): Promise<void> {
  const identityDb = createPool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop',
    schema: 'identity',
    max: 1,
  });
  try {
    const { rowCount } = await identityDb.query(
      `UPDATE sessions SET auth_time = now() - interval '1 hour'
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    if (!rowCount) throw new Error(`no session of ${email} to make stale`);
  } finally {
    await identityDb.end();
  }
  await context.clearCookies({ name: 'ld_access' });
}

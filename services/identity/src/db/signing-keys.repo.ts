import type { JWK } from 'jose';
import { withTransaction, type Pool } from '@lockdrop/db';

/**
 * The stored keys, oldest first; `generate` runs (under a lock, so replicas starting together
 * agree on one key) only when there are none.
 */
export async function loadOrCreateSigningKeys(
  pool: Pool,
  generate: () => Promise<JWK & { kid: string }>,
): Promise<JWK[]> {
  return withTransaction(pool, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('identity:signing_keys'))`);
    const { rows } = await tx.query<{ private_jwk: JWK }>(
      'SELECT private_jwk FROM signing_keys ORDER BY created_at',
    );
    if (rows.length > 0) return rows.map((row) => row.private_jwk);
    const key = await generate();
    await tx.query('INSERT INTO signing_keys (kid, private_jwk) VALUES ($1, $2)', [
      key.kid,
      JSON.stringify(key),
    ]);
    return [key];
  });
}

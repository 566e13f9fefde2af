import type { Pool, PoolClient } from './pool.js';

/** Runs `work` inside BEGIN/COMMIT on one client; any throw rolls back and rethrows. */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // A connection killed while checked out (database restart, DROP ... WITH (FORCE)) emits
  // 'error' on the client; unheard, that crashes the process. The failed query rejects anyway.
  const ignoreConnectionError = () => undefined;
  client.on('error', ignoreConnectionError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', ignoreConnectionError);
    client.release();
  }
}

import type { Pool, PoolClient } from './pool.js';

/** Runs `work` inside BEGIN/COMMIT on one client; any throw rolls back and rethrows. */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  // A connection killed while checked out fails the next query; the client itself hears its
  // 'error' event (pool.ts), so it cannot crash the process.
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

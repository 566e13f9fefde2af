import type { Pool, PoolClient } from './pool.js';

export interface TransactionOptions {
  /**
   * How long a statement of this transaction waits for a row lock before it fails, like `50ms`
   * (SET LOCAL lock_timeout). Sent with BEGIN, in the same round trip.
   */
  lockTimeout?: `${number}ms`;
}

/** Runs `work` inside BEGIN/COMMIT on one client; any throw rolls back and rethrows. */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  { lockTimeout }: TransactionOptions = {},
): Promise<T> {
  // Simple protocol, so no parameter: the value is checked to be a plain duration instead.
  if (lockTimeout !== undefined && !/^\d+ms$/.test(lockTimeout))
    throw new Error(`lock timeout ${JSON.stringify(lockTimeout)} is not a duration like 50ms`);
  // A connection killed while checked out fails the next query; the client itself hears its
  // 'error' event (pool.ts), so it cannot crash the process.
  const client = await pool.connect();
  try {
    await client.query(
      lockTimeout === undefined ? 'BEGIN' : `BEGIN; SET LOCAL lock_timeout = '${lockTimeout}'`,
    );
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

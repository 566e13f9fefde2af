import { createTestDatabase } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, withTransaction, type Pool } from '../src/index.js';

describe('withTransaction', async () => {
  const database = await createTestDatabase();
  let pool: Pool;
  beforeAll(async () => {
    pool = createPool({ connectionString: database.url, schema: 'public', max: 4 });
    await pool.query('CREATE TABLE counters (id int PRIMARY KEY, value int NOT NULL)');
    await pool.query('INSERT INTO counters VALUES (1, 0)');
  });
  afterAll(async () => {
    await pool?.end();
    await database.drop();
  });

  it('commits what work wrote, and rolls all of it back when work throws', async () => {
    await withTransaction(pool, (tx) => tx.query('UPDATE counters SET value = 1 WHERE id = 1'));
    const failure = await withTransaction(pool, async (tx) => {
      await tx.query('UPDATE counters SET value = 2 WHERE id = 1');
      throw new Error('work failed');
    }).catch((error: unknown) => error);
    expect(failure).toEqual(new Error('work failed'));
    expect((await pool.query('SELECT value FROM counters')).rows).toEqual([{ value: 1 }]);
  });

  it('with a lock timeout, gives up waiting on a row another transaction holds, for this transaction only', async () => {
    const holder = await pool.connect();
    // One connection, so the check afterwards runs on the one the timeout was set on.
    const single = createPool({ connectionString: database.url, schema: 'public', max: 1 });
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM counters WHERE id = 1 FOR UPDATE');
      const started = Date.now();
      const failure = await withTransaction(
        single,
        (tx) => tx.query('UPDATE counters SET value = 3 WHERE id = 1'),
        { lockTimeout: '50ms' },
      ).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: '55P03' }); // lock_not_available
      expect(Date.now() - started).toBeLessThan(5_000);
      // SET LOCAL ended with that transaction: the connection it used waits as long as it takes.
      const { rows } = await single.query<{ lock_timeout: string }>('SHOW lock_timeout');
      expect(rows).toEqual([{ lock_timeout: '0' }]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await single.end();
    }
  });

  it('refuses a lock timeout that is not a plain duration (it is sent as SQL text)', async () => {
    const failure = await withTransaction(pool, async () => undefined, {
      lockTimeout: "1ms'; DROP TABLE counters; --" as `${number}ms`,
    }).catch((error: unknown) => error);
    expect(String(failure)).toMatch(/is not a duration/);
    expect((await pool.query('SELECT count(*)::int AS n FROM counters')).rows).toEqual([{ n: 1 }]);
  });
});

import { createTestDatabase } from '@lockdrop/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool, isOutage } from '../src/index.js';

/**
 * A primary that dies (or an administrator's pg_terminate_backend) ends connections that are
 * checked out but between statements — a transaction waiting on a provider call, a LISTEN. pg
 * then emits 'error' on the client; unheard, that crashed payments in the failover chaos test.
 */
describe('a pooled connection the server ends while it is checked out', async () => {
  const database = await createTestDatabase();
  const url = new URL(database.url);
  const urls = {
    'one host': database.url,
    'several hosts': `postgres://${url.username}${url.password ? `:${url.password}` : ''}@127.0.0.1:${
      url.port || 5432
    },127.0.0.1:${url.port || 5432}${url.pathname}?target_session_attrs=read-write`,
  };
  const uncaught: Error[] = [];
  const monitor = (error: Error) => uncaught.push(error);
  process.on('uncaughtExceptionMonitor', monitor);
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', monitor);
    await database.drop();
  });

  for (const [label, connectionString] of Object.entries(urls)) {
    it(`fails its next statement as an outage and leaves the process and the pool working (${label})`, async () => {
      const pool = createPool({ connectionString, schema: 'public', max: 3 });
      try {
        const client = await pool.connect();
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
        await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        await ended;
        const failure = await client.query('SELECT 1').then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure).not.toBeNull();
        expect(isOutage(failure)).toBe(true);
        client.release();
        expect(uncaught).toEqual([]);
        // The pool dropped the dead connection and answers from a new one.
        expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
      } finally {
        await pool.end();
      }
    });
  }
});

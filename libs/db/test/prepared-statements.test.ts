import { createTestDatabase, type TestDatabase } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, withTransaction, type Pool, type PoolClient } from '../src/index.js';
import { PREPARED_PER_CONNECTION } from '../src/prepared-statements.js';

let database: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.url, schema: 'shop', max: 1 });
  await pool.query(`CREATE SCHEMA shop;
    CREATE TABLE shop.items (id int PRIMARY KEY, title text NOT NULL);
    INSERT INTO shop.items VALUES (1, 'Beat pack'), (2, 'Preset kit')`);
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

/** What this connection holds prepared, as Postgres reports it. */
const preparedHere = async (client: Pick<PoolClient, 'query'>) =>
  (await client.query('SELECT statement FROM pg_prepared_statements')).rows.map(
    (row: { statement: string }) => row.statement,
  );

describe('prepared statements', () => {
  it('prepares a parameterised statement once per connection and reuses it', async () => {
    const text = 'SELECT title FROM items WHERE id = $1';
    const titles = [];
    for (const id of [1, 2, 1]) titles.push((await pool.query(text, [id])).rows[0].title);
    expect(titles).toEqual(['Beat pack', 'Preset kit', 'Beat pack']);
    const client = await pool.connect();
    try {
      expect((await preparedHere(client)).filter((statement) => statement === text)).toHaveLength(
        1,
      );
    } finally {
      client.release();
    }
  });

  it('keeps texts without parameters on the simple protocol, several statements at once', async () => {
    const results = await pool.query('SELECT 1 AS one; SELECT 2 AS two');
    expect((results as unknown as { rows: object[] }[]).map((r) => r.rows[0])).toEqual([
      { one: 1 },
      { two: 2 },
    ]);
  });

  it('keeps answering after a statement failed inside a transaction', async () => {
    await expect(
      withTransaction(pool, async (tx) => {
        await tx.query('INSERT INTO items (id, title) VALUES ($1, $2)', [3, 'Stems']);
        await tx.query('INSERT INTO items (id, title) VALUES ($1, $2)', [3, 'Stems again']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await withTransaction(pool, (tx) =>
      tx.query('INSERT INTO items (id, title) VALUES ($1, $2)', [3, 'Stems']),
    );
    const { rows } = await pool.query('SELECT title FROM items WHERE id = $1', [3]);
    expect(rows).toEqual([{ title: 'Stems' }]);
  });

  it('runs statements beyond the per-connection bound unprepared, so text built per call cannot grow a session without end', async () => {
    const own = createPool({ connectionString: database.url, schema: 'shop', max: 1 });
    const client = await own.connect();
    try {
      const extra = 20;
      for (let n = 0; n < PREPARED_PER_CONNECTION + extra; n += 1) {
        const { rows } = await client.query(`SELECT $1::int + ${n} AS total`, [1]);
        expect(rows[0].total).toBe(n + 1);
      }
      expect((await preparedHere(client)).length).toBeLessThanOrEqual(PREPARED_PER_CONNECTION);
    } finally {
      client.release();
      await own.end();
    }
  });

  it('prepares a statement again when a migration changed what it returns', async () => {
    const client = await pool.connect();
    try {
      const text = 'SELECT * FROM items WHERE id = $1';
      expect((await client.query(text, [1])).rows[0]).toEqual({ id: 1, title: 'Beat pack' });
      await client.query("ALTER TABLE items ADD COLUMN kind text NOT NULL DEFAULT 'audio'");
      // Postgres refuses the stale statement once; the call after it prepares the text anew.
      await expect(client.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
      expect((await client.query(text, [1])).rows[0]).toEqual({
        id: 1,
        title: 'Beat pack',
        kind: 'audio',
      });
    } finally {
      client.release();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { createPool, migrate } from '@lockdrop/db';
import { createTestDatabase } from '@lockdrop/testing';
import { expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';

it('keeps only the payout method of profiles saved before details moved to payments', async () => {
  const database = await createTestDatabase();
  const pool = createPool({ connectionString: database.url, schema: 'identity', max: 2 });
  try {
    const before = migrations.filter((migration) => migration.id !== '0002_payout_method_only');
    await migrate(pool, 'identity', before);
    const seller = randomUUID();
    const newcomer = randomUUID();
    for (const [id, details] of [
      [seller, { method: 'bank', bankName: 'GTBank', accountNumber: '0123456789' }],
      [newcomer, null],
    ] as const) {
      await pool.query(`INSERT INTO users (id, email) VALUES ($1, $2)`, [id, `${id}@example.com`]);
      await pool.query(
        `INSERT INTO profiles (id, full_name, payout_details) VALUES ($1, 'Ada', $2)`,
        [id, details && JSON.stringify(details)],
      );
    }
    await migrate(pool, 'identity', migrations);
    const { rows } = await pool.query(
      'SELECT id, payout_method FROM profiles ORDER BY payout_method NULLS LAST',
    );
    expect(rows).toEqual([
      { id: seller, payout_method: 'bank' },
      { id: newcomer, payout_method: null },
    ]);
    // The account number is gone from identity's schema, not merely hidden.
    const columns = await pool.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'identity' AND table_name = 'profiles'`,
    );
    expect(columns.rows.map((row) => row.column_name)).not.toContain('payout_details');
  } finally {
    await pool.end();
    await database.drop();
  }
});

import { createTestDatabase, type TestDatabase } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, withTransaction, type Pool } from '../src/index.js';

let database: TestDatabase;
const pools: Pool[] = [];
const pool = (schema = 'shop') => {
  const created = createPool({ connectionString: database.url, schema });
  pools.push(created);
  return created;
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await database.drop();
});

const migrations = [
  {
    id: '001_items',
    sql: 'CREATE TABLE items (id serial PRIMARY KEY, price_minor bigint NOT NULL)',
  },
  { id: '002_items_name', sql: "ALTER TABLE items ADD COLUMN name text NOT NULL DEFAULT ''" },
];

describe('migrate', () => {
  it('applies each migration once even when two replicas start at the same moment', async () => {
    const [first, second] = await Promise.all([
      migrate(pool(), 'shop', migrations),
      migrate(pool(), 'shop', migrations),
    ]);
    expect([...first, ...second].sort()).toEqual(['001_items', '002_items_name']);
    const { rows } = await pool().query('SELECT id FROM shop.schema_migrations ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(['001_items', '002_items_name']);
  });

  it('creates a schema shared by services that start at once (the dev mailbox) without failing', async () => {
    // Like `npm start` on a fresh database: each service migrates its own schema, then the
    // shared one. Before the fix this failed in most rounds on pg_namespace's unique index.
    for (let round = 0; round < 6; round += 1) {
      const services = ['identity', 'payments', 'catalog', 'delivery'];
      const applied = await Promise.all(
        services.map(async (service) => {
          const own = pool(`${service}_${round}`);
          await migrate(own, `${service}_${round}`, migrations);
          return migrate(own, `mailbox_${round}`, migrations);
        }),
      );
      expect(applied.flat().sort()).toEqual(['001_items', '002_items_name']);
    }
  });

  it('refuses a migration whose text changed after it was applied', async () => {
    const edited = [{ ...migrations[0]!, sql: 'CREATE TABLE items (id int)' }, migrations[1]!];
    await expect(migrate(pool(), 'shop', edited)).rejects.toThrow(/edited after it was applied/);
  });

  it('leaves the schema untouched when a migration fails', async () => {
    const broken = [
      ...migrations,
      { id: '003_ok', sql: 'CREATE TABLE ok (id int)' },
      { id: '004_bad', sql: 'CREATE TABLE nope (' },
    ];
    await expect(migrate(pool(), 'shop', broken)).rejects.toThrow();
    const { rows } = await pool().query("SELECT to_regclass('shop.ok') AS ok");
    expect(rows[0].ok).toBeNull();
  });

  it('resolves unqualified names into the service schema and reads bigint money as numbers', async () => {
    const shop = pool();
    await shop.query('INSERT INTO items (price_minor, name) VALUES (150000, $1)', ['Ebook']);
    const { rows } = await shop.query('SELECT price_minor FROM items');
    expect(rows[0].price_minor).toBe(150000);
  });
});

describe('withTransaction', () => {
  it('rolls back everything when the work throws', async () => {
    const shop = pool();
    await expect(
      withTransaction(shop, async (client) => {
        await client.query("INSERT INTO items (price_minor, name) VALUES (1, 'rolled-back')");
        throw new Error('payment provider timed out');
      }),
    ).rejects.toThrow('payment provider timed out');
    const { rowCount } = await shop.query("SELECT 1 FROM items WHERE name = 'rolled-back'");
    expect(rowCount).toBe(0);
  });
});

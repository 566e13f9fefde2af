import { createHash } from 'node:crypto';
import { assertIdentifier, type Pool } from './pool.js';
import { withTransaction } from './transaction.js';

/** One forward-only schema change. `id` orders migrations and must never change once shipped. */
export interface Migration {
  id: string;
  sql: string;
}

/**
 * Applies pending migrations into `schema`, in id order, all in one transaction (a failed
 * migration leaves the schema as it was). A transaction-scoped advisory lock keyed by the
 * schema serialises replicas that start at once: the second waits, then sees the first one's
 * rows and applies nothing twice.
 * An applied migration whose text changed is refused rather than silently skipped.
 */
export async function migrate(
  pool: Pool,
  schema: string,
  migrations: Migration[],
): Promise<string[]> {
  assertIdentifier(schema);
  const ordered = [...migrations].sort((a, b) => a.id.localeCompare(b.id));
  // A service running as its own role (no DDL rights) starts after its migrations were applied
  // by an admin: nothing pending means no DDL at all, not even CREATE SCHEMA IF NOT EXISTS.
  if (await upToDate(pool, schema, ordered)) return [];
  await ensureSchema(pool, schema);
  const applied: string[] = [];
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`migrate:${schema}`]);
    await client.query(`SET LOCAL search_path TO ${schema}, public`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
      id text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ id: string; checksum: string }>(
      `SELECT id, checksum FROM ${schema}.schema_migrations`,
    );
    const done = new Map(rows.map((row) => [row.id, row.checksum]));
    for (const migration of ordered) {
      const checksum = createHash('sha256').update(migration.sql).digest('hex');
      const previous = done.get(migration.id);
      if (previous !== undefined) {
        if (previous !== checksum) {
          throw new Error(`migration ${schema}/${migration.id} was edited after it was applied`);
        }
        continue;
      }
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${schema}.schema_migrations (id, checksum) VALUES ($1, $2)`, [
        migration.id,
        checksum,
      ]);
      applied.push(migration.id);
    }
  });
  return applied;
}

/** Concurrent `CREATE SCHEMA IF NOT EXISTS` of one name: the loser fails instead of skipping. */
const SCHEMA_CREATED_CONCURRENTLY = new Set(['23505', '42P06']);

/**
 * Creates `schema` in a transaction of its own, before the migration lock. Inside the locked
 * transaction it raced: a service that started with another (the development mailbox is
 * migrated by identity and payments) waited for the lock, then still missed the schema the
 * other had just created — the advisory lock does not refresh a backend's catalog cache — and
 * failed on pg_namespace's unique index (found on a fresh `npm start`; 94 of 160 attempts in
 * a loop). A retry is a new transaction, which sees the other's schema.
 */
async function ensureSchema(pool: Pool, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 3 || !code || !SCHEMA_CREATED_CONCURRENTLY.has(code)) throw error;
    }
  }
}

async function upToDate(pool: Pool, schema: string, migrations: Migration[]): Promise<boolean> {
  const { rows } = await pool.query<{ exists: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS exists',
    [`${schema}.schema_migrations`],
  );
  if (!rows[0]?.exists) return false;
  const applied = await pool
    .query<{ id: string; checksum: string }>(`SELECT id, checksum FROM ${schema}.schema_migrations`)
    .catch(() => null);
  if (!applied) return false;
  const done = new Map(applied.rows.map((row) => [row.id, row.checksum]));
  return migrations.every((migration) => {
    const checksum = createHash('sha256').update(migration.sql).digest('hex');
    if (done.has(migration.id) && done.get(migration.id) !== checksum)
      throw new Error(`migration ${schema}/${migration.id} was edited after it was applied`);
    return done.has(migration.id);
  });
}

import { createHash, randomBytes } from 'node:crypto';
import {
  createPool,
  dropDatabase,
  ensureDatabase,
  migrate,
  withDatabaseName,
  type Migration,
} from '@lockdrop/db';
import pg from 'pg';
import { testEnv } from './env.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A schema and the migrations that build it, as a service applies them at start. */
export interface SchemaMigrations {
  schema: string;
  migrations: Migration[];
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A database of its own for one test file. With `schemas`, it is a copy of a template that
 * already holds them (`CREATE DATABASE … TEMPLATE`), so the service under test starts on a
 * migrated schema instead of migrating an empty one in every file; its own migration run at
 * start then finds nothing to do.
 */
export async function createTestDatabase(
  options: { schemas?: SchemaMigrations[] } = {},
): Promise<TestDatabase> {
  const url = withDatabaseName(testEnv.databaseUrl, `test_${randomBytes(6).toString('hex')}`);
  if (!options.schemas?.length) await ensureDatabase(url);
  else {
    const template = await migratedTemplate(options.schemas);
    await withAdmin((client) =>
      client.query(
        `CREATE DATABASE ${quoted(new URL(url).pathname.slice(1))} TEMPLATE ${quoted(template)}`,
      ),
    );
  }
  return { url, drop: () => dropDatabase(url) };
}

/**
 * The template for a set of schemas, named by them and a hash of their migrations: a changed
 * migration gets a new template (and the outdated one is dropped), and every test file of
 * every run after the first reuses it. Test files
 * run in parallel processes, so the first to need a template builds it under an advisory lock
 * and the others wait for it; a build that fails leaves no template behind.
 */
async function migratedTemplate(schemas: SchemaMigrations[]): Promise<string> {
  const digest = createHash('sha256').update(JSON.stringify(schemas)).digest('hex').slice(0, 12);
  const family = `template_${schemas.map((entry) => entry.schema).join('_')}_`.slice(0, 48);
  const name = `${family}${digest}`;
  return withAdmin(async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        name,
      ]);
      if (rowCount) return name;
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${quoted(building)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${quoted(building)}`);
      const pool = createPool({
        connectionString: withDatabaseName(testEnv.databaseUrl, building),
        schema: 'public',
        max: 1,
      });
      try {
        for (const { schema, migrations } of schemas) await migrate(pool, schema, migrations);
      } finally {
        await pool.end();
      }
      await client.query(`ALTER DATABASE ${quoted(building)} RENAME TO ${quoted(name)}`);
      await dropOutdated(client, family, name);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
}

/**
 * Templates of the same schemas built from older migrations are of no further use. One that
 * another run is cloning right now cannot be dropped; it is left for the next build to remove.
 */
async function dropOutdated(client: pg.Client, family: string, current: string): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(
    // Exactly the family and a digest: `template_catalog_` must not match `template_catalog_delivery_…`.
    "SELECT datname FROM pg_database WHERE datname ~ ('^' || $1 || '[0-9a-f]{12}$') AND datname <> $2",
    [family, current],
  );
  for (const { datname } of rows)
    await client.query(`DROP DATABASE IF EXISTS ${quoted(datname)}`).catch(() => undefined);
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: withDatabaseName(testEnv.databaseUrl, 'postgres'),
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

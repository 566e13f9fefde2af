import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEnv, type TestDatabase } from '../src/index.js';

// A schema name of its own, so this file's templates never meet a service's.
const schema = `tpl${randomBytes(4).toString('hex')}`;
const created: TestDatabase[] = [];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testEnv.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const templatesOf = () =>
  admin(async (client) =>
    (
      await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname',
        [`template_${schema}_`],
      )
    ).rows.map((row) => row.datname),
  );

async function databaseWith(migrations: { id: string; sql: string }[]) {
  const database = await createTestDatabase({ schemas: [{ schema, migrations }] });
  created.push(database);
  return database;
}

const tablesIn = (database: TestDatabase) => {
  const client = new pg.Client({ connectionString: database.url });
  return client
    .connect()
    .then(() =>
      client.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
        [schema],
      ),
    )
    .then((result) => result.rows.map((row) => row.table_name))
    .finally(() => client.end());
};

afterAll(async () => {
  await Promise.all(created.map((database) => database.drop()));
  await admin(async (client) => {
    for (const name of await templatesOf())
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});

describe('per-file databases cloned from a migrated template', () => {
  const first = [{ id: '0001', sql: 'CREATE TABLE widgets (id int PRIMARY KEY)' }];
  const second = [...first, { id: '0002', sql: 'CREATE TABLE gadgets (id int PRIMARY KEY)' }];

  it('starts each file on the migrated schema, in a database of its own', async () => {
    const [one, two] = await Promise.all([databaseWith(first), databaseWith(first)]);
    expect(one.url).not.toBe(two.url);
    expect(await tablesIn(one)).toEqual(['schema_migrations', 'widgets']);
    expect(await tablesIn(two)).toEqual(['schema_migrations', 'widgets']);
    // Two files at once built one template between them.
    expect(await templatesOf()).toHaveLength(1);
  });

  it('builds a new template when a migration is added, and drops the outdated one', async () => {
    const [before] = await templatesOf();
    const database = await databaseWith(second);
    expect(await tablesIn(database)).toEqual(['gadgets', 'schema_migrations', 'widgets']);
    const after = await templatesOf();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });
});

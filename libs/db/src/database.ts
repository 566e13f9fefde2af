import type pg from 'pg';
import { connectClient, databaseNameFromUrl, isMultiHost, replaceDatabaseName } from './hosts.js';

/** Connection string for the same server (or servers) with another database name. */
export function withDatabaseName(connectionString: string, database: string): string {
  if (isMultiHost(connectionString)) return replaceDatabaseName(connectionString, database);
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

export function databaseNameOf(connectionString: string): string {
  return databaseNameFromUrl(connectionString);
}

async function withAdminClient<T>(
  connectionString: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connectClient(withDatabaseName(connectionString, 'postgres'));
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function databaseAnswers(connectionString: string): Promise<boolean> {
  try {
    await (await connectClient(connectionString)).end();
    return true;
  } catch (error) {
    // 3D000 invalid_catalog_name: the database does not exist (yet). Anything else is real.
    if ((error as { code?: string }).code === '3D000') return false;
    throw error;
  }
}

/**
 * Creates the database named in `connectionString` when it does not exist yet, so a fresh
 * machine needs no manual `createdb`. The target is tried first: on managed Postgres the
 * app's role often may not connect to the `postgres` maintenance database at all.
 * Two services racing to create it is harmless.
 */
export async function ensureDatabase(connectionString: string): Promise<void> {
  if (await databaseAnswers(connectionString)) return;
  const name = databaseNameOf(connectionString);
  await withAdminClient(connectionString, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    try {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    } catch (error) {
      // 42P04 duplicate_database / 23505: another process created it between our check and create.
      const code = (error as { code?: string }).code;
      if (code !== '42P04' && code !== '23505') throw error;
    }
  });
}

export async function dropDatabase(connectionString: string): Promise<void> {
  const name = databaseNameOf(connectionString);
  await withAdminClient(connectionString, (client) =>
    client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`),
  );
}

import pg from 'pg';
import { assertIdentifier, type Pool } from './pool.js';
import { databaseNameOf } from './database.js';
import { userInfoOf } from './hosts.js';

/** The login role (user) and password a connection string names. */
export function credentialsOf(connectionString: string): { user: string; password: string } {
  return userInfoOf(connectionString);
}

/**
 * Makes the login role of `serviceUrl` able to read and write the rows of `schemas` and nothing
 * else: no rights on other services' schemas, and — since the tables belong to the admin who ran
 * the migrations — no way to alter a table or drop a trigger (the ledger's append-only guard
 * holds even against its own service). Creates the role when it does not exist and sets its
 * password from the URL, so the migrations both create and grant. Run with an admin pool after
 * the schemas are migrated; new tables get their grants on the next run.
 */
export async function grantServiceRole(
  admin: Pool,
  { serviceUrl, schemas }: { serviceUrl: string; schemas: string[] },
): Promise<void> {
  const { user, password } = credentialsOf(serviceUrl);
  const role = assertIdentifier(user);
  if (!password) throw new Error(`the service URL for role ${role} has no password`);
  const database = pg.escapeIdentifier(databaseNameOf(serviceUrl));
  const client = await admin.connect();
  try {
    await client.query('BEGIN');
    // Serialises replicas that start together: CREATE ROLE is not idempotent on its own.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`role:${role}`]);
    const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    const secret = pg.escapeLiteral(password);
    await client.query(
      rowCount
        ? `ALTER ROLE ${role} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${secret}`
        : `CREATE ROLE ${role} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${secret}`,
    );
    await client.query(`GRANT CONNECT ON DATABASE ${database} TO ${role}`);
    for (const schema of schemas.map(assertIdentifier)) {
      await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await client.query(
        `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
      );
      await client.query(
        `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

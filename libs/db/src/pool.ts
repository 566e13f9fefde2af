import pg from 'pg';
import { PreparingClient } from './prepared-statements.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: a pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// BIGINT (int8) columns hold money in minor units; parse them as numbers, never strings.
// Values beyond 2^53 are out of range for any amount we handle, so fail loudly instead.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 out of safe range: ${value}`);
  return parsed;
});

export interface PoolOptions {
  connectionString: string;
  /** The service's own schema: every unqualified table name resolves into it. */
  schema: string;
  max?: number;
  applicationName?: string;
}

export function assertIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return name;
}

export function createPool({
  connectionString,
  schema,
  max = 10,
  applicationName,
}: PoolOptions): Pool {
  assertIdentifier(schema);
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString,
    max,
    application_name: applicationName ?? schema,
    options: `-c search_path=${schema},public`,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool discards it and the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, withDatabaseName } from '@lockdrop/db';
import { testEnv } from './env.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty database of its own for one test file; services migrate their schemas into it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = withDatabaseName(testEnv.databaseUrl, `test_${randomBytes(6).toString('hex')}`);
  await ensureDatabase(url);
  return { url, drop: () => dropDatabase(url) };
}

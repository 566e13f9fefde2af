import { createPool, type Pool } from '@lockdrop/db';
import { createTestDatabase } from '@lockdrop/testing';
import { mailOutboxMigrations } from '../src/index.js';

/**
 * A sending service's side of the mail outbox, as identity and payments have it: a database of
 * its own with the outbox migrated into schema `sender` (cloned from a template).
 */
export async function openSenderDatabase(): Promise<{ pool: Pool; close(): Promise<void> }> {
  const database = await createTestDatabase({
    schemas: [{ schema: 'sender', migrations: mailOutboxMigrations }],
  });
  const pool = createPool({ connectionString: database.url, schema: 'sender' });
  return {
    pool,
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}

import type { Queryable } from './pool.js';

export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}

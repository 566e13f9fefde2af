import { randomUUID } from 'node:crypto';
import { createPool, migrate, type Pool } from '@lockdrop/db';
import { serviceSchemas } from '@lockdrop/service';
import { createTestDatabase, type TestDatabase } from '@lockdrop/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';

/**
 * Migration 0009 on a database that already holds what the unbounded stamper left: 'too_large'
 * recorded when a stamping process was killed is forgotten (the PDF is tried again); only a
 * PDF over the 100 MB parse limit stays too large for good.
 */
const MIGRATION = '0009_stamped_copies_bounded';
let database: TestDatabase;
let db: Pool;

const [schema] = serviceSchemas({ name: 'delivery', migrations });

beforeAll(async () => {
  // An empty database migrated by hand, not a shared template: a template of other migrations
  // would replace the one every other test file of delivery clones.
  database = await createTestDatabase();
  db = createPool({ connectionString: database.url, schema: 'delivery', max: 2 });
  const before = schema!.migrations.filter((migration) => migration.id !== MIGRATION);
  await migrate(db, 'delivery', before);
});
afterAll(async () => {
  await db?.end();
  await database?.drop();
});

async function pdf(sizeBytes: number, pdfStamp: string | null): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO files (id, owner_id, storage_key, file_name, size_bytes, content_type, sha256, kind, pdf_stamp)
     VALUES ($1, $2, $3, 'book.pdf', $4, 'application/pdf', repeat('a', 64), 'pdf', $5)`,
    [id, randomUUID(), `owner/${id}.pdf`, sizeBytes, pdfStamp],
  );
  return id;
}

it("forgets 'too_large' left by killed stamping processes and keeps it over the parse limit", async () => {
  const killed = await pdf(5 * 1024 * 1024, 'too_large');
  const overLimit = await pdf(100 * 1024 * 1024 + 1, 'too_large');
  const encrypted = await pdf(1024, 'encrypted');
  const createdAt = new Date('2026-01-02T03:04:05Z');
  await db.query(
    `INSERT INTO stamped_copies (file_id, buyer_email, storage_key, size_bytes, sha256, created_at)
     VALUES ($1, 'ada@example.com', 'stamped/copy.pdf', 10, repeat('b', 64), $2)`,
    [encrypted, createdAt],
  );

  expect(await migrate(db, 'delivery', schema!.migrations)).toEqual([MIGRATION]);

  const { rows } = await db.query<{ id: string; pdf_stamp: string | null }>(
    'SELECT id, pdf_stamp FROM files',
  );
  expect(Object.fromEntries(rows.map((row) => [row.id, row.pdf_stamp]))).toEqual({
    [killed]: null,
    [overLimit]: 'too_large',
    [encrypted]: 'encrypted',
  });
  const { rows: copies } = await db.query<{ last_used_at: Date }>(
    'SELECT last_used_at FROM stamped_copies',
  );
  expect(copies).toEqual([{ last_used_at: createdAt }]);
});

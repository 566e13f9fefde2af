import { createTestDatabase } from '@lockdrop/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  applyNewestSnapshot,
  applyTombstone,
  createPool,
  type Pool,
  type ReadModelTable,
} from '../src/index.js';

const database = await createTestDatabase();
let pool: Pool;
const model: ReadModelTable = { table: 'things', key: 'id', version: 'seen_at' };

beforeAll(async () => {
  pool = createPool({ connectionString: database.url, schema: 'public', max: 2 });
  await pool.query(
    `CREATE TABLE things (id text PRIMARY KEY, title text NOT NULL, deleted boolean NOT NULL DEFAULT false, seen_at timestamptz NOT NULL)`,
  );
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

const row = async (id: string) =>
  (await pool.query('SELECT title, deleted FROM things WHERE id = $1', [id])).rows[0];

it('keeps the newest snapshot whatever order events arrive in', async () => {
  expect(
    await applyNewestSnapshot(pool, model, 'a', '2026-11-24T10:00:00Z', { title: 'second' }),
  ).toBe(true);
  expect(
    await applyNewestSnapshot(pool, model, 'a', '2026-11-24T09:00:00Z', { title: 'first' }),
  ).toBe(false);
  expect(await row('a')).toEqual({ title: 'second', deleted: false });
  expect(
    await applyNewestSnapshot(pool, model, 'a', '2026-11-24T11:00:00Z', { title: 'third' }),
  ).toBe(true);
  expect(await row('a')).toEqual({ title: 'third', deleted: false });
});

it('a deletion is a tombstone no late snapshot brings back, even one that arrives first', async () => {
  await applyNewestSnapshot(pool, model, 'b', '2026-11-24T10:00:00Z', { title: 'kept' });
  await applyTombstone(pool, model, 'b', '2026-11-24T09:00:00Z', { title: '' });
  expect(await row('b')).toEqual({ title: 'kept', deleted: true });
  expect(
    await applyNewestSnapshot(pool, model, 'b', '2026-11-24T12:00:00Z', { title: 'revived' }),
  ).toBe(false);
  expect(await row('b')).toEqual({ title: 'kept', deleted: true });

  await applyTombstone(pool, model, 'c', '2026-11-24T10:00:00Z', { title: '' });
  expect(
    await applyNewestSnapshot(pool, model, 'c', '2026-11-24T09:00:00Z', { title: 'created' }),
  ).toBe(false);
  expect(await row('c')).toEqual({ title: '', deleted: true });
});

import { assertIdentifier, type Queryable } from './pool.js';

/**
 * A local copy of another service's entity, kept from its events (ARCHITECTURE §2): events of
 * one entity arrive on separate consumers and may be redelivered, so a snapshot is applied only
 * if it is not older than the row's (`version`, the event's `occurredAt`), and a deletion leaves
 * a tombstone (`deleted = true`) that no late snapshot can bring back. The one home of that rule
 * for every service that keeps such a table.
 */
export interface ReadModelTable {
  table: string;
  /** The primary key column. */
  key: string;
  /** The timestamptz column holding the applied event's `occurredAt`. */
  version: string;
}

const quoteAll = (names: string[]) => names.map((name) => assertIdentifier(name));

/** Applies a snapshot unless a newer one or the deletion is stored; true when it was applied. */
export async function applyNewestSnapshot(
  db: Queryable,
  model: ReadModelTable,
  id: string,
  occurredAt: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  const [table, key, version] = quoteAll([model.table, model.key, model.version]);
  const columns = quoteAll(Object.keys(values));
  const names = [key, ...columns, version];
  const placeholders = names.map((_, index) => `$${index + 1}`);
  const { rowCount } = await db.query(
    `INSERT INTO ${table} AS t (${names.join(', ')}) VALUES (${placeholders.join(', ')})
     ON CONFLICT (${key}) DO UPDATE SET ${[...columns, version].map((c) => `${c} = excluded.${c}`).join(', ')}
     WHERE NOT t.deleted AND t.${version} <= excluded.${version}`,
    [id, ...Object.values(values), occurredAt],
  );
  return rowCount === 1;
}

/**
 * Marks the entity deleted (inserting a tombstone with `placeholder` values for the row's NOT NULL
 * columns when it was never seen), keeping the newest version seen.
 */
export async function applyTombstone(
  db: Queryable,
  model: ReadModelTable,
  id: string,
  occurredAt: string,
  placeholder: Record<string, unknown>,
): Promise<void> {
  const [table, key, version] = quoteAll([model.table, model.key, model.version]);
  const columns = quoteAll(Object.keys(placeholder));
  const names = [key, ...columns, 'deleted', version];
  const values = [id, ...Object.values(placeholder), true, occurredAt];
  await db.query(
    `INSERT INTO ${table} AS t (${names.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT (${key}) DO UPDATE SET deleted = true, ${version} = GREATEST(t.${version}, excluded.${version})`,
    values,
  );
}

import { pageOfRows } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

/**
 * The public API's list pages (issue 27) as SQL keyset queries, newest first: rows of `scope`
 * (the caller's own, e.g. seller and mode) matching `filters`, ordered by (`orderBy`, id) DESC,
 * after the row `startingAfter`, `LIMIT limit + 1` so the extra row only says there is more
 * (`pageOfRows`). The cursor must name a row of the same scope: otherwise null (a 400), so a
 * cursor never reveals or pages from another seller's row. Table and column names come from code,
 * never from the request; every value is a bound parameter.
 */
export async function keysetPage<T>(
  db: Queryable,
  query: {
    table: string;
    columns: string;
    orderBy: string;
    scope: Record<string, unknown>;
    /** A condition that holds for every row of the resource (no parameters), e.g. its kind. */
    always?: string;
    /** Filters the request asked for; an undefined value is no filter. */
    filters: [column: string, op: '=' | '>=' | '<', value: unknown][];
    startingAfter?: string;
    limit: number;
  },
): Promise<{ data: T[]; has_more: boolean } | null> {
  const params: unknown[] = [];
  const bind = (value: unknown) => `$${params.push(value)}`;
  const scope = [
    ...Object.entries(query.scope).map(([column, value]) => `${column} = ${bind(value)}`),
    ...(query.always ? [query.always] : []),
  ];
  const conditions = [...scope];
  if (query.startingAfter !== undefined) {
    const cursor = `(SELECT ${query.orderBy}, id FROM ${query.table}
      WHERE id::text = ${bind(query.startingAfter)} AND ${scope.join(' AND ')})`;
    // Only the scope and the cursor are bound so far: this check uses exactly those parameters.
    const { rows } = await db.query(`SELECT 1 FROM ${cursor} c`, params);
    if (rows.length === 0) return null;
    conditions.push(`(${query.orderBy}, id) < ${cursor}`);
  }
  for (const [column, op, value] of query.filters)
    if (value !== undefined) conditions.push(`${column} ${op} ${bind(value)}`);
  const { rows } = await db.query<T & object>(
    `SELECT ${query.columns} FROM ${query.table} WHERE ${conditions.join(' AND ')}
     ORDER BY ${query.orderBy} DESC, id DESC LIMIT ${bind(query.limit + 1)}`,
    params,
  );
  return pageOfRows(rows as T[], query.limit);
}

import type { Queryable } from '@lockdrop/db';

export interface Counter {
  hits: number;
  retryAfterSeconds: number;
}

/** Counts one hit in a fixed window that starts with the first hit after the last window ended. */
export async function hit(db: Queryable, key: string, windowSeconds: number): Promise<Counter> {
  const { rows } = await db.query<{ hits: number; retry_after: number }>(
    `INSERT INTO throttle_counters AS c (key, hits, window_ends_at)
     VALUES ($1, 1, now() + make_interval(secs => $2))
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN c.window_ends_at <= now() THEN 1 ELSE c.hits + 1 END,
       window_ends_at = CASE WHEN c.window_ends_at <= now() THEN EXCLUDED.window_ends_at ELSE c.window_ends_at END
     RETURNING hits, ceil(extract(epoch FROM window_ends_at - now()))::int AS retry_after`,
    [key, windowSeconds],
  );
  return { hits: rows[0]!.hits, retryAfterSeconds: Math.max(1, rows[0]!.retry_after) };
}

export async function peek(db: Queryable, key: string): Promise<Counter> {
  const { rows } = await db.query<{ hits: number; retry_after: number }>(
    `SELECT hits, ceil(extract(epoch FROM window_ends_at - now()))::int AS retry_after
     FROM throttle_counters WHERE key = $1 AND window_ends_at > now()`,
    [key],
  );
  return rows[0]
    ? { hits: rows[0].hits, retryAfterSeconds: Math.max(1, rows[0].retry_after) }
    : { hits: 0, retryAfterSeconds: 0 };
}

export async function reset(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM throttle_counters WHERE key = $1', [key]);
}

export async function deleteExpired(db: Queryable): Promise<void> {
  await db.query('DELETE FROM throttle_counters WHERE window_ends_at <= now()');
}

import type { Queryable } from '@lockdrop/db';
import type { RateSet } from '../domain/fx/rates.js';

/** Stores one published set; `id` is the id of the event that publishes it. */
export async function insertRateSet(db: Queryable, id: string, set: RateSet): Promise<void> {
  await db.query(
    'INSERT INTO fx_rate_sets (id, source, fetched_at, rates) VALUES ($1, $2, $3, $4)',
    [id, set.source, set.fetchedAt, JSON.stringify(set.rates)],
  );
}

export async function hasRateSets(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM fx_rate_sets) AS found',
  );
  return rows[0]?.found ?? false;
}

/** Serialises seeding across worker replicas until the caller's transaction ends. */
export async function lockRateSets(db: Queryable): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('worker.fx_rate_sets'))");
}

/** The rates of the newest published set; empty before the first. */
export async function latestRates(db: Queryable): Promise<RateSet['rates']> {
  const { rows } = await db.query<{ rates: RateSet['rates'] }>(
    'SELECT rates FROM fx_rate_sets ORDER BY fetched_at DESC LIMIT 1',
  );
  return rows[0]?.rates ?? [];
}

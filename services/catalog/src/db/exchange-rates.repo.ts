import type { Queryable } from '@lockdrop/db';

export interface StoredRate {
  from: string;
  to: string;
  /** Exact decimal text as Postgres holds it; rates never pass through a float. */
  rate: string;
  source: string;
  updatedAt: Date;
}

/** Every rate, newest first (spec §7 row 18). The table holds one row per currency pair. */
export async function listRates(db: Queryable): Promise<StoredRate[]> {
  const { rows } = await db.query<StoredRate>(
    `SELECT from_currency AS "from", to_currency AS "to", rate::text AS rate, source, updated_at AS "updatedAt"
     FROM exchange_rates ORDER BY updated_at DESC, from_currency, to_currency`,
  );
  return rows;
}

/** Upserts a rate unless a newer one is already stored (events may arrive out of order). */
export async function upsertRate(db: Queryable, rate: StoredRate): Promise<void> {
  await db.query(
    `INSERT INTO exchange_rates (from_currency, to_currency, rate, source, updated_at)
     VALUES ($1, $2, $3::numeric, $4, $5)
     ON CONFLICT (from_currency, to_currency) DO UPDATE
       SET rate = EXCLUDED.rate, source = EXCLUDED.source, updated_at = EXCLUDED.updated_at
       WHERE exchange_rates.updated_at <= EXCLUDED.updated_at`,
    [rate.from, rate.to, rate.rate, rate.source, rate.updatedAt],
  );
}

import type { Queryable } from '@lockdrop/db';

const DAY_MS = 24 * 3_600_000;
/**
 * Raw provider notifications that reached a final outcome are kept 90 days (providers retry for
 * at most a few days, so the de-duplication key is long unneeded). Purchases, refunds, payouts
 * and the ledger — the money records — are never pruned (terms: kept at least 3 years).
 */
export const SETTLED_PROVIDER_EVENT_RETENTION_DAYS = 90;

export async function pruneSettledProviderEvents(db: Queryable, dueAt: Date) {
  const { rowCount } = await db.query(
    `DELETE FROM provider_events WHERE status IN ('processed', 'ignored') AND received_at < $1`,
    [new Date(dueAt.getTime() - SETTLED_PROVIDER_EVENT_RETENTION_DAYS * DAY_MS)],
  );
  return { providerEvents: rowCount ?? 0 };
}

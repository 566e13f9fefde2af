import type { Queryable } from '@lockdrop/db';

const DAY_MS = 24 * 3_600_000;
/** Expired links and receipt sessions are kept a month for support questions, then dropped. */
export const EXPIRED_ACCESS_RETENTION_DAYS = 30;

/**
 * Deletes download links and receipt sessions that expired over a month ago. A link that
 * delivered a file stays: the completed download references it (the download history is kept).
 */
export async function pruneExpiredAccess(db: Queryable, dueAt: Date) {
  const cutoff = new Date(dueAt.getTime() - EXPIRED_ACCESS_RETENTION_DAYS * DAY_MS);
  const grants = await db.query(
    `DELETE FROM download_grants g WHERE g.expires_at < $1
       AND NOT EXISTS (SELECT 1 FROM downloads d WHERE d.grant_id = g.id)`,
    [cutoff],
  );
  const sessions = await db.query('DELETE FROM receipt_sessions WHERE expires_at < $1', [cutoff]);
  return { downloadGrants: grants.rowCount ?? 0, receiptSessions: sessions.rowCount ?? 0 };
}

import type { Queryable } from '@lockdrop/db';

/** A download link as handed out: the token names `id` and the expiry, nothing else. */
export interface DownloadGrant {
  id: string;
  purchaseId: string;
  /** Null for a ZIP of every file of the purchase. */
  fileId: string | null;
  expiresAt: Date;
}

export async function insertGrant(
  db: Queryable,
  grant: DownloadGrant & { createdAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO download_grants (id, purchase_id, file_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)',
    [grant.id, grant.purchaseId, grant.fileId, grant.expiresAt, grant.createdAt],
  );
}

/** Links given for the purchase since `since`, and when the oldest of them was given. */
export async function grantsSince(
  db: Queryable,
  purchaseId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const { rows } = await db.query<{ count: number; oldest: Date | null }>(
    'SELECT count(*)::int AS count, min(created_at) AS oldest FROM download_grants WHERE purchase_id = $1 AND created_at > $2',
    [purchaseId, since],
  );
  return rows[0]!;
}

export async function findGrant(db: Queryable, grantId: string): Promise<DownloadGrant | null> {
  const { rows } = await db.query<DownloadGrant>(
    `SELECT id, purchase_id AS "purchaseId", file_id AS "fileId", expires_at AS "expiresAt" FROM download_grants WHERE id = $1`,
    [grantId],
  );
  return rows[0] ?? null;
}

export async function insertDownload(
  db: Queryable,
  download: {
    id: string;
    grantId: string;
    purchaseId: string;
    fileId: string;
    firstByte: number;
    bytesSent: number;
    completedAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO downloads (id, grant_id, purchase_id, file_id, first_byte, bytes_sent, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      download.id,
      download.grantId,
      download.purchaseId,
      download.fileId,
      download.firstByte,
      download.bytesSent,
      download.completedAt,
    ],
  );
}

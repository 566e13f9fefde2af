import { changeWithEvents } from '@lockdrop/bus';
import type { DomainEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { entitlementFromJson, entitlementJson, type Entitlement } from './entitlements.repo.js';
import { purchaseFileFromJson, purchaseFilesJson, type StoredFile } from './files.repo.js';

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

/**
 * What redeeming a link needs, in one round trip: the grant, its purchase's entitlement and the
 * files the purchase holds now (each as findEntitlement and findPurchaseFiles read them).
 */
export async function findGrantToRedeem(
  db: Queryable,
  grantId: string,
): Promise<{ grant: DownloadGrant; entitlement: Entitlement | null; files: StoredFile[] } | null> {
  const { rows } = await db.query<
    DownloadGrant & {
      entitlement: Parameters<typeof entitlementFromJson>[0] | null;
      files: Parameters<typeof purchaseFileFromJson>[0][];
    }
  >(
    `SELECT g.id, g.purchase_id AS "purchaseId", g.file_id AS "fileId", g.expires_at AS "expiresAt",
       ${entitlementJson('g.purchase_id')} AS entitlement, ${purchaseFilesJson('g.purchase_id')} AS files
     FROM download_grants g WHERE g.id = $1`,
    [grantId],
  );
  const row = rows[0];
  if (!row) return null;
  const { entitlement, files, ...grant } = row;
  return {
    grant,
    entitlement: entitlement && entitlementFromJson(entitlement),
    files: files.map(purchaseFileFromJson),
  };
}

/** A completed download of one file (ranges count from `firstByte`). */
export interface CompletedDownload {
  id: string;
  grantId: string;
  purchaseId: string;
  fileId: string;
  firstByte: number;
  bytesSent: number;
  completedAt: Date;
}

/** The `downloads` rows and the events about them, in one statement (see changeWithEvents). */
export async function recordDownloads(
  db: Queryable,
  downloads: CompletedDownload[],
  events: DomainEvent[],
): Promise<void> {
  await changeWithEvents(
    db,
    {
      text: `INSERT INTO downloads (id, grant_id, purchase_id, file_id, first_byte, bytes_sent, completed_at)
        SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::bigint[], $6::bigint[], $7::timestamptz[])`,
      values: [
        downloads.map((download) => download.id),
        downloads.map((download) => download.grantId),
        downloads.map((download) => download.purchaseId),
        downloads.map((download) => download.fileId),
        downloads.map((download) => download.firstByte),
        downloads.map((download) => download.bytesSent),
        downloads.map((download) => download.completedAt),
      ],
    },
    events,
  );
}

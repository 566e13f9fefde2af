import type { Queryable } from '@lockdrop/db';
import type { UnstampableReason } from '../previews/unstampable.js';

export type PdfStampStatus = 'available' | UnstampableReason;

export interface StampedCopy {
  fileId: string;
  buyerEmail: string;
  storageKey: string;
  sizeBytes: number;
  sha256: string;
}

const COLUMNS = `file_id AS "fileId", buyer_email AS "buyerEmail", storage_key AS "storageKey",
  size_bytes AS "sizeBytes", sha256`;

export async function findStampedCopy(
  db: Queryable,
  fileId: string,
  buyerEmail: string,
): Promise<StampedCopy | null> {
  const { rows } = await db.query<StampedCopy>(
    `SELECT ${COLUMNS} FROM stamped_copies WHERE file_id = $1 AND buyer_email = lower($2)`,
    [fileId, buyerEmail],
  );
  return rows[0] ?? null;
}

/**
 * What a redemption needs in one round trip: whether the file can be stamped (null: not yet
 * known) and this buyer's copy, if one was made.
 */
export async function stampingOf(
  db: Queryable,
  fileId: string,
  buyerEmail: string,
): Promise<{ status: PdfStampStatus | null; copy: StampedCopy | null }> {
  const { rows } = await db.query<{ status: PdfStampStatus | null } & Partial<StampedCopy>>(
    `SELECT f.pdf_stamp AS status, s.file_id AS "fileId", s.buyer_email AS "buyerEmail",
       s.storage_key AS "storageKey", s.size_bytes AS "sizeBytes", s.sha256
     FROM files f LEFT JOIN stamped_copies s ON s.file_id = f.id AND s.buyer_email = lower($2)
     WHERE f.id = $1`,
    [fileId, buyerEmail],
  );
  const row = rows[0];
  if (!row) return { status: null, copy: null };
  const { status, ...copy } = row;
  return { status, copy: copy.storageKey ? (copy as StampedCopy) : null };
}

/**
 * Records a copy unless one of the pair was recorded first (another replica stamped the same
 * buyer and file at the same time); returns the copy kept, which the caller serves — null in
 * the rare case that the other one was removed again in between (a refund, an eviction).
 */
export async function keepStampedCopy(
  db: Queryable,
  copy: StampedCopy,
): Promise<StampedCopy | null> {
  const { rowCount } = await db.query(
    `INSERT INTO stamped_copies (file_id, buyer_email, storage_key, size_bytes, sha256)
     VALUES ($1, lower($2), $3, $4, $5) ON CONFLICT (file_id, buyer_email) DO NOTHING`,
    [copy.fileId, copy.buyerEmail, copy.storageKey, copy.sizeBytes, copy.sha256],
  );
  return rowCount === 1 ? copy : findStampedCopy(db, copy.fileId, copy.buyerEmail);
}

/** Marks a copy as just served, at most once a minute (for least-recently-used eviction). */
export async function touchStampedCopy(db: Queryable, copy: StampedCopy): Promise<void> {
  await db.query(
    `UPDATE stamped_copies SET last_used_at = now()
     WHERE file_id = $1 AND buyer_email = lower($2) AND last_used_at < now() - interval '1 minute'`,
    [copy.fileId, copy.buyerEmail],
  );
}

/**
 * Forgets the least recently used copies beyond `maxBytes` in all, never `keptKey` (the copy
 * about to be served, counted first). Returns their objects' keys for the caller to delete.
 * Serialised by a transaction-scoped lock, so two evictions never lock rows in opposite orders.
 */
export async function evictStampedCopies(
  db: Queryable,
  maxBytes: number,
  keptKey: string,
): Promise<string[]> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('delivery.stamped-copies-eviction'))");
  const { rows } = await db.query<{ storage_key: string }>(
    `DELETE FROM stamped_copies s
     USING (
       SELECT storage_key, sum(size_bytes) OVER (
           ORDER BY storage_key = $2 DESC, last_used_at DESC, storage_key) AS kept_bytes
       FROM stamped_copies
     ) ranked
     WHERE s.storage_key = ranked.storage_key AND ranked.kept_bytes > $1 AND s.storage_key <> $2
     RETURNING s.storage_key`,
    [maxBytes, keptKey],
  );
  return rows.map((row) => row.storage_key);
}

/** Forgets every stamped copy of a file; returns their objects' keys for the caller to delete. */
export async function deleteStampedCopies(db: Queryable, fileId: string): Promise<string[]> {
  const { rows } = await db.query<{ storage_key: string }>(
    'DELETE FROM stamped_copies WHERE file_id = $1 RETURNING storage_key',
    [fileId],
  );
  return rows.map((row) => row.storage_key);
}

/**
 * Forgets the stamped copies `buyerEmail` no longer has a use for: files that no paid, unrevoked
 * purchase of theirs still reaches (the file bought, or a file of the product bought). Returns
 * their objects' keys for the caller to delete.
 */
export async function deleteUnreachableStampedCopies(
  db: Queryable,
  buyerEmail: string,
): Promise<string[]> {
  const { rows } = await db.query<{ storage_key: string }>(
    `DELETE FROM stamped_copies s
     WHERE s.buyer_email = lower($1)
       AND NOT EXISTS (
         SELECT 1 FROM entitlements e LEFT JOIN products p ON p.product_id = e.product_id
         WHERE e.buyer_email = s.buyer_email AND e.paid_at IS NOT NULL AND e.revoked_at IS NULL
           AND (e.file_id = s.file_id OR p.file_ids @> ARRAY[s.file_id]))
     RETURNING s.storage_key`,
    [buyerEmail],
  );
  return rows.map((row) => row.storage_key);
}

export async function pdfStampStatus(
  db: Queryable,
  fileId: string,
): Promise<PdfStampStatus | null> {
  const { rows } = await db.query<{ pdf_stamp: PdfStampStatus | null }>(
    'SELECT pdf_stamp FROM files WHERE id = $1',
    [fileId],
  );
  return rows[0]?.pdf_stamp ?? null;
}

export async function setPdfStampStatus(
  db: Queryable,
  fileId: string,
  status: PdfStampStatus,
): Promise<void> {
  await db.query('UPDATE files SET pdf_stamp = $2 WHERE id = $1', [fileId, status]);
}

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

export async function insertStampedCopy(db: Queryable, copy: StampedCopy): Promise<void> {
  await db.query(
    `INSERT INTO stamped_copies (file_id, buyer_email, storage_key, size_bytes, sha256)
     VALUES ($1, lower($2), $3, $4, $5)`,
    [copy.fileId, copy.buyerEmail, copy.storageKey, copy.sizeBytes, copy.sha256],
  );
}

/** Forgets every stamped copy of a file; returns their objects' keys for the caller to delete. */
export async function deleteStampedCopies(db: Queryable, fileId: string): Promise<string[]> {
  const { rows } = await db.query<{ storage_key: string }>(
    'DELETE FROM stamped_copies WHERE file_id = $1 RETURNING storage_key',
    [fileId],
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

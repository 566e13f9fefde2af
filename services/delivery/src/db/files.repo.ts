import type { Queryable } from '@lockdrop/db';
import type { FileKind } from '../domain/file-kind.js';

export interface StoredFile {
  id: string;
  ownerId: string;
  storageKey: string;
  fileName: string;
  sizeBytes: number;
  contentType: string;
  sha256: string;
  kind: FileKind;
  createdAt: Date;
}

const COLUMNS = `id, owner_id AS "ownerId", storage_key AS "storageKey", file_name AS "fileName",
  size_bytes AS "sizeBytes", content_type AS "contentType", sha256, kind, created_at AS "createdAt"`;

export async function insertFile(
  db: Queryable,
  file: Omit<StoredFile, 'createdAt'>,
): Promise<StoredFile> {
  const { rows } = await db.query<StoredFile>(
    `INSERT INTO files (id, owner_id, storage_key, file_name, size_bytes, content_type, sha256, kind)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      file.id,
      file.ownerId,
      file.storageKey,
      file.fileName,
      file.sizeBytes,
      file.contentType,
      file.sha256,
      file.kind,
    ],
  );
  return rows[0]!;
}

export async function findFile(db: Queryable, fileId: string): Promise<StoredFile | null> {
  const { rows } = await db.query<StoredFile>(`SELECT ${COLUMNS} FROM files WHERE id = $1`, [
    fileId,
  ]);
  return rows[0] ?? null;
}

/**
 * The files a purchase may download, in the seller's order: its product's current files (a
 * deleted product's last ones), then the file bought at checkout if the product no longer lists
 * it — a replaced file stays with whoever bought it. A file removed from the product is gone for
 * the other buyers; a file deleted from storage's records is skipped. Rows of COLUMNS and their
 * `position`, for the purchase the SQL expression `purchaseId` names.
 */
const purchaseFileRows = (purchaseId: string) =>
  `WITH purchase AS (
     SELECT e.file_id AS bought, COALESCE(p.file_ids, '{}') AS listed
     FROM entitlements e LEFT JOIN products p ON p.product_id = e.product_id
     WHERE e.purchase_id = ${purchaseId}
   ), chosen AS (
     SELECT listed.file_id, listed.position
     FROM purchase, unnest(purchase.listed) WITH ORDINALITY AS listed (file_id, position)
     UNION ALL
     SELECT bought, cardinality(listed) + 1 FROM purchase
     WHERE bought IS NOT NULL AND NOT bought = ANY (listed)
   )
   SELECT ${COLUMNS}, c.position FROM files
     JOIN (SELECT file_id, min(position) AS position FROM chosen GROUP BY file_id) c
       ON c.file_id = files.id`;

type PositionedFile = StoredFile & { position: number };

const withoutPosition = ({ position: _position, ...file }: PositionedFile): StoredFile => file;

export async function findPurchaseFiles(db: Queryable, purchaseId: string): Promise<StoredFile[]> {
  const { rows } = await db.query<PositionedFile>(`${purchaseFileRows('$1')} ORDER BY c.position`, [
    purchaseId,
  ]);
  return rows.map(withoutPosition);
}

/** SQL for `findPurchaseFiles`' answer as one JSON array, to read along with other rows. */
export const purchaseFilesJson = (purchaseId: string) =>
  `(SELECT COALESCE(json_agg(f ORDER BY f.position), '[]') FROM (${purchaseFileRows(purchaseId)}) f)`;

/** A file of `purchaseFilesJson`'s array (JSON has no dates). */
export const purchaseFileFromJson = (
  json: Omit<PositionedFile, 'createdAt'> & { createdAt: string },
): StoredFile => withoutPosition({ ...json, createdAt: new Date(json.createdAt) });

export async function deleteFile(db: Queryable, fileId: string): Promise<void> {
  await db.query('DELETE FROM files WHERE id = $1', [fileId]);
}

export async function uploadsInMonth(
  db: Queryable,
  ownerId: string,
  month: string,
): Promise<number> {
  const { rows } = await db.query<{ uploads: number }>(
    'SELECT uploads FROM monthly_uploads WHERE owner_id = $1 AND month = $2',
    [ownerId, month],
  );
  return rows[0]?.uploads ?? 0;
}

/**
 * Counts one upload against the month, atomically: under concurrent uploads exactly `limit`
 * succeed. Returns false (and counts nothing) when the month is already full.
 */
export async function countUpload(
  db: Queryable,
  ownerId: string,
  month: string,
  limit: number | null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO monthly_uploads AS m (owner_id, month, uploads) VALUES ($1, $2, 1)
     ON CONFLICT (owner_id, month) DO UPDATE SET uploads = m.uploads + 1
     WHERE $3::integer IS NULL OR m.uploads < $3::integer`,
    [ownerId, month, limit],
  );
  return rowCount === 1;
}

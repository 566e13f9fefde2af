import type { Queryable } from '@lockdrop/db';
import type { FileKind } from '../domain/file-kind.js';
import type { PreviewStatus } from '../domain/preview-status.js';

export interface Preview {
  productId: string;
  revision: number;
  status: PreviewStatus;
  fileId: string;
  blurPercentage: number;
  /** The rendered file's kind, or the file's own while nothing is rendered; null if the file is unknown. */
  kind: FileKind | null;
  objectKey: string | null;
  contentType: string | null;
  etag: string | null;
  width: number | null;
  height: number | null;
}

/** A claimed render: valid while its lease lasts and while `revision` is still current. */
export interface RenderJob {
  productId: string;
  revision: number;
  fileId: string;
  blurPercentage: number;
  attempts: number;
  correlationId: string;
}

export interface RenderedPreview {
  kind: FileKind;
  objectKey: string;
  contentType: string;
  etag: string;
  width: number;
  height: number;
}

/** What a product asks of its preview. */
export interface PreviewRequest {
  productId: string;
  fileId: string;
  blurPercentage: number;
  correlationId: string;
}

/** NOTIFY channel per schema: several services (or test databases) may share one Postgres. */
export const renderChannelSql = `'previews_' || current_schema()`;

const LEASE_SECONDS = 120;

export async function findPreview(db: Queryable, productId: string): Promise<Preview | null> {
  const { rows } = await db.query<Preview>(
    `SELECT p.product_id AS "productId", p.revision, p.status, p.file_id AS "fileId",
            p.blur_percentage AS "blurPercentage", COALESCE(p.kind, f.kind) AS kind,
            p.object_key AS "objectKey", p.content_type AS "contentType", p.etag, p.width, p.height
     FROM previews p LEFT JOIN files f ON f.id = p.file_id
     WHERE p.product_id = $1`,
    [productId],
  );
  return rows[0] ?? null;
}

/** Asks for a fresh render of the product's file at `blurPercentage`; any render in flight becomes stale. */
export async function requestRender(db: Queryable, request: PreviewRequest): Promise<void> {
  await db.query(
    `INSERT INTO previews (product_id, revision, status, file_id, blur_percentage, correlation_id)
     VALUES ($1, 1, 'pending', $2, $3, $4)
     ON CONFLICT (product_id) DO UPDATE SET
       revision = previews.revision + 1, status = 'pending', file_id = excluded.file_id,
       blur_percentage = excluded.blur_percentage, correlation_id = excluded.correlation_id,
       attempts = 0, lease_until = NULL, last_error = NULL, updated_at = now()`,
    [request.productId, request.fileId, request.blurPercentage, request.correlationId],
  );
  // Delivered on commit, to every replica's preview worker.
  await db.query(`SELECT pg_notify(${renderChannelSql}, '')`);
}

/** The seller turned previews off: nothing is served, and a render in flight becomes stale. */
export async function disablePreview(db: Queryable, request: PreviewRequest): Promise<void> {
  await db.query(
    `INSERT INTO previews (product_id, revision, status, file_id, blur_percentage, correlation_id)
     VALUES ($1, 1, 'disabled', $2, $3, $4)
     ON CONFLICT (product_id) DO UPDATE SET
       revision = previews.revision + 1, status = 'disabled', file_id = excluded.file_id,
       blur_percentage = excluded.blur_percentage, correlation_id = excluded.correlation_id,
       lease_until = NULL, updated_at = now()`,
    [request.productId, request.fileId, request.blurPercentage, request.correlationId],
  );
}

/** Removes the preview row; returns the key of its image so the caller can delete it. */
export async function removePreview(db: Queryable, productId: string): Promise<string | null> {
  const { rows } = await db.query<{ objectKey: string | null }>(
    'DELETE FROM previews WHERE product_id = $1 RETURNING object_key AS "objectKey"',
    [productId],
  );
  return rows[0]?.objectKey ?? null;
}

/**
 * Takes the oldest pending render nobody holds a lease on. SKIP LOCKED and the lease let
 * several workers and replicas share the queue; a worker that dies leaves a lease that expires.
 */
export async function claimRender(db: Queryable): Promise<RenderJob | null> {
  const { rows } = await db.query<RenderJob>(
    `UPDATE previews SET lease_until = now() + make_interval(secs => $1), attempts = attempts + 1
     WHERE product_id = (
       SELECT product_id FROM previews
       WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < now())
       ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING product_id AS "productId", revision, file_id AS "fileId",
               blur_percentage AS "blurPercentage", attempts, correlation_id AS "correlationId"`,
    [LEASE_SECONDS],
  );
  return rows[0] ?? null;
}

/**
 * Records a finished render if the job is still current. Returns `{ current: false }` when the
 * product changed meanwhile (the new image must then be discarded), else the key of the image
 * it replaces.
 */
export async function completeRender(
  db: Queryable,
  job: RenderJob,
  rendered: RenderedPreview,
): Promise<{ current: false } | { current: true; replacedKey: string | null }> {
  const { rows } = await db.query<{ replacedKey: string | null }>(
    `WITH old AS (SELECT object_key FROM previews WHERE product_id = $1 FOR UPDATE)
     UPDATE previews p SET status = 'ready', kind = $3, object_key = $4, content_type = $5, etag = $6,
       width = $7, height = $8, lease_until = NULL, last_error = NULL, updated_at = now()
     FROM old
     WHERE p.product_id = $1 AND p.revision = $2 AND p.status = 'pending'
     RETURNING old.object_key AS "replacedKey"`,
    [
      job.productId,
      job.revision,
      rendered.kind,
      rendered.objectKey,
      rendered.contentType,
      rendered.etag,
      rendered.width,
      rendered.height,
    ],
  );
  const row = rows[0];
  return row
    ? {
        current: true,
        replacedKey: row.replacedKey === rendered.objectKey ? null : row.replacedKey,
      }
    : { current: false };
}

/** A failed attempt, to be claimed again after `retryAfterSeconds`. */
export async function recordRenderRetry(
  db: Queryable,
  job: RenderJob,
  error: string,
  retryAfterSeconds: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE previews SET lease_until = now() + make_interval(secs => $3::integer),
       last_error = $4, updated_at = now()
     WHERE product_id = $1 AND revision = $2 AND status = 'pending'`,
    [job.productId, job.revision, retryAfterSeconds, error.slice(0, 500)],
  );
  return rowCount === 1;
}

/**
 * Gives up on rendering this revision: `failed` for good, shown as `card` (a type card drawn
 * from our own template, never from the file) when one could be made. Returns whether the job
 * was still current, and the key of the image the card replaces.
 */
export async function recordRenderFailure(
  db: Queryable,
  job: RenderJob,
  error: string,
  card: RenderedPreview | null,
): Promise<{ current: boolean; replacedKey: string | null }> {
  const { rows } = await db.query<{ replacedKey: string | null }>(
    `WITH old AS (SELECT object_key FROM previews WHERE product_id = $1 FOR UPDATE)
     UPDATE previews p SET status = 'failed', lease_until = NULL, last_error = $3, updated_at = now(),
       kind = COALESCE($4, p.kind), object_key = $5, content_type = $6, etag = $7, width = $8, height = $9
     FROM old
     WHERE p.product_id = $1 AND p.revision = $2 AND p.status = 'pending'
     RETURNING old.object_key AS "replacedKey"`,
    [
      job.productId,
      job.revision,
      error.slice(0, 500),
      card?.kind ?? null,
      card?.objectKey ?? null,
      card?.contentType ?? null,
      card?.etag ?? null,
      card?.width ?? null,
      card?.height ?? null,
    ],
  );
  const row = rows[0];
  return row
    ? { current: true, replacedKey: row.replacedKey }
    : { current: false, replacedKey: null };
}

/** The state of the most recently changed preview among the products selling this file. */
export async function previewStatusOfFile(
  db: Queryable,
  fileId: string,
): Promise<PreviewStatus | null> {
  const { rows } = await db.query<{ status: PreviewStatus }>(
    `SELECT v.status FROM previews v JOIN products p ON p.product_id = v.product_id AND NOT p.deleted
     WHERE v.file_id = $1 ORDER BY v.updated_at DESC LIMIT 1`,
    [fileId],
  );
  return rows[0]?.status ?? null;
}

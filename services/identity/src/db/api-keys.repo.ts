import type { ApiKeyMode, ApiKeyScope, ApiVersion } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

export interface ApiKeyRecord {
  id: string;
  userId: string;
  name: string;
  mode: ApiKeyMode;
  prefix: string;
  scopes: ApiKeyScope[];
  apiVersion: ApiVersion;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
}

interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  mode: ApiKeyMode;
  prefix: string;
  scopes: ApiKeyScope[];
  api_version: ApiVersion;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
}

const COLUMNS = `id, user_id, name, mode, prefix, scopes, api_version, created_at, expires_at,
  revoked_at, last_used_at, last_used_ip`;

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  mode: row.mode,
  prefix: row.prefix,
  scopes: row.scopes,
  apiVersion: row.api_version,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
  lastUsedIp: row.last_used_ip,
});

export async function insertApiKey(
  db: Queryable,
  key: Omit<ApiKeyRecord, 'createdAt' | 'revokedAt' | 'lastUsedAt' | 'lastUsedIp'> & {
    secretHash: Buffer;
  },
): Promise<ApiKeyRecord> {
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, user_id, name, mode, prefix, secret_hash, scopes, api_version, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [
      key.id,
      key.userId,
      key.name,
      key.mode,
      key.prefix,
      key.secretHash,
      key.scopes,
      key.apiVersion,
      key.expiresAt,
    ],
  );
  return toApiKey(rows[0]!);
}

/** The seller's keys that still work, newest first. */
export async function listActiveApiKeys(db: Queryable, userId: string): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys
     WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
     ORDER BY created_at DESC, id`,
    [userId],
  );
  return rows.map(toApiKey);
}

/** Revokes the seller's own key; null when it is not theirs or already revoked. */
export async function revokeApiKey(
  db: Queryable,
  userId: string,
  keyId: string,
): Promise<ApiKeyRecord | null> {
  const { rows } = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = now()
     WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    [keyId, userId],
  );
  return rows[0] ? toApiKey(rows[0]) : null;
}

/** The key with this hash if it is neither revoked nor expired. */
export async function findUsableApiKey(
  db: Queryable,
  secretHash: Buffer,
): Promise<ApiKeyRecord | null> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys
     WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [secretHash],
  );
  return rows[0] ? toApiKey(rows[0]) : null;
}

/**
 * Records a use, but writes only when the stored one is older than `minIntervalSeconds`: a busy
 * key costs one small UPDATE a minute, not one per request.
 */
export async function touchApiKey(
  db: Queryable,
  keyId: string,
  ip: string,
  minIntervalSeconds: number,
): Promise<void> {
  await db.query(
    `UPDATE api_keys SET last_used_at = now(), last_used_ip = $2
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $3))`,
    [keyId, ip, minIntervalSeconds],
  );
}

import type { MemberRole } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

/** All the team SQL (issue 28): memberships, invites and the audit log. */

export interface Membership {
  id: string;
  storeId: string;
  userId: string;
  role: MemberRole;
  createdAt: Date;
  /** Past the plan's seats since then (a downgrade): read rights only. */
  readOnlySince: Date | null;
}
interface MembershipRow {
  id: string;
  store_id: string;
  user_id: string;
  role: MemberRole;
  created_at: Date;
  read_only_since: Date | null;
}
const toMembership = (row: MembershipRow): Membership => ({
  id: row.id,
  storeId: row.store_id,
  userId: row.user_id,
  role: row.role,
  createdAt: row.created_at,
  readOnlySince: row.read_only_since,
});

/** The store's owner: the account it is, unless ownership was transferred. */
export async function ownerOf(db: Queryable, storeId: string): Promise<string> {
  const { rows } = await db.query<{ owner_id: string }>(
    'SELECT owner_id FROM store_owners WHERE store_id = $1',
    [storeId],
  );
  return rows[0]?.owner_id ?? storeId;
}

/** Stores someone received by a transfer (their own account's store is not among them). */
export async function listTransferredStoresOf(
  db: Queryable,
  ownerId: string,
): Promise<{ storeId: string; storeName: string }[]> {
  const { rows } = await db.query<{ store_id: string; store_name: string }>(
    `SELECT o.store_id, coalesce(nullif(p.full_name, ''), u.email) AS store_name
     FROM store_owners o JOIN users u ON u.id = o.store_id JOIN profiles p ON p.id = o.store_id
     WHERE o.owner_id = $1 ORDER BY store_name`,
    [ownerId],
  );
  return rows.map((row) => ({ storeId: row.store_id, storeName: row.store_name }));
}

/** Hands the store to `ownerId`; back to the account it is means no row. */
export async function setOwner(db: Queryable, storeId: string, ownerId: string): Promise<void> {
  if (ownerId === storeId) {
    await db.query('DELETE FROM store_owners WHERE store_id = $1', [storeId]);
    return;
  }
  await db.query(
    `INSERT INTO store_owners (store_id, owner_id) VALUES ($1, $2)
     ON CONFLICT (store_id) DO UPDATE SET owner_id = $2, transferred_at = now()`,
    [storeId, ownerId],
  );
}

/** Members past the seats become read-only; returns whose access changed. */
export async function markReadOnly(db: Queryable, membershipIds: string[]): Promise<Membership[]> {
  if (membershipIds.length === 0) return [];
  const { rows } = await db.query<MembershipRow>(
    `UPDATE store_members SET read_only_since = now()
     WHERE id = ANY($1::uuid[]) AND read_only_since IS NULL AND removed_at IS NULL RETURNING *`,
    [membershipIds],
  );
  return rows.map(toMembership);
}

/** Gives read-only members (all of the store's, or one) their role back. */
export async function restoreReadOnly(
  db: Queryable,
  storeId: string,
  userId?: string,
): Promise<Membership[]> {
  const { rows } = await db.query<MembershipRow>(
    `UPDATE store_members SET read_only_since = NULL
     WHERE store_id = $1 AND removed_at IS NULL AND read_only_since IS NOT NULL
       AND ($2::uuid IS NULL OR user_id = $2) RETURNING *`,
    [storeId, userId ?? null],
  );
  return rows.map(toMembership);
}

export async function findLiveMembership(
  db: Queryable,
  storeId: string,
  userId: string,
  forUpdate = false,
): Promise<Membership | null> {
  const { rows } = await db.query<MembershipRow>(
    `SELECT * FROM store_members WHERE store_id = $1 AND user_id = $2 AND removed_at IS NULL
     ${forUpdate ? 'FOR UPDATE' : ''}`,
    [storeId, userId],
  );
  return rows[0] ? toMembership(rows[0]) : null;
}

export interface MemberRow extends Membership {
  email: string;
  fullName: string;
}
export async function listLiveMembers(db: Queryable, storeId: string): Promise<MemberRow[]> {
  const { rows } = await db.query<MembershipRow & { email: string; full_name: string }>(
    `SELECT m.*, u.email, p.full_name FROM store_members m
     JOIN users u ON u.id = m.user_id JOIN profiles p ON p.id = m.user_id
     WHERE m.store_id = $1 AND m.removed_at IS NULL ORDER BY m.created_at, m.id`,
    [storeId],
  );
  return rows.map((row) => ({ ...toMembership(row), email: row.email, fullName: row.full_name }));
}

/** The stores a person belongs to as a member (not their own account's), with its name to show. */
export async function listStoresOf(
  db: Queryable,
  userId: string,
): Promise<(Membership & { storeName: string })[]> {
  const { rows } = await db.query<MembershipRow & { store_name: string }>(
    `SELECT m.*, coalesce(nullif(p.full_name, ''), u.email) AS store_name FROM store_members m
     JOIN users u ON u.id = m.store_id JOIN profiles p ON p.id = m.store_id
     WHERE m.user_id = $1 AND m.store_id <> $1 AND m.removed_at IS NULL ORDER BY store_name`,
    [userId],
  );
  return rows.map((row) => ({ ...toMembership(row), storeName: row.store_name }));
}

export async function insertMembership(
  db: Queryable,
  member: {
    id: string;
    storeId: string;
    userId: string;
    role: MemberRole;
    invitedBy: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO store_members (id, store_id, user_id, role, invited_by) VALUES ($1, $2, $3, $4, $5)`,
    [member.id, member.storeId, member.userId, member.role, member.invitedBy],
  );
}

export async function updateRole(db: Queryable, membershipId: string, role: MemberRole) {
  await db.query('UPDATE store_members SET role = $2 WHERE id = $1', [membershipId, role]);
}

export async function markRemoved(db: Queryable, membershipId: string): Promise<void> {
  await db.query('UPDATE store_members SET removed_at = now() WHERE id = $1', [membershipId]);
}

/** Members plus pending (unexpired, unused, unrevoked) invites: what counts against the seats. */
export async function countSeatsUsed(db: Queryable, storeId: string): Promise<number> {
  const { rows } = await db.query<{ used: number }>(
    `SELECT (SELECT count(*) FROM store_members WHERE store_id = $1 AND removed_at IS NULL)
          + (SELECT count(*) FROM store_invites WHERE store_id = $1 AND accepted_at IS NULL
               AND revoked_at IS NULL AND expires_at > now()) AS used`,
    [storeId],
  );
  return Number(rows[0]!.used);
}

export interface Invite {
  id: string;
  storeId: string;
  email: string;
  role: MemberRole;
  expiresAt: Date;
  createdAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}
interface InviteRow {
  id: string;
  store_id: string;
  email: string;
  role: MemberRole;
  expires_at: Date;
  created_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}
const toInvite = (row: InviteRow): Invite => ({
  id: row.id,
  storeId: row.store_id,
  email: row.email,
  role: row.role,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  acceptedAt: row.accepted_at,
  revokedAt: row.revoked_at,
});

export async function insertInvite(
  db: Queryable,
  invite: {
    id: string;
    storeId: string;
    email: string;
    role: MemberRole;
    tokenHash: string;
    invitedBy: string;
    lifetimeSeconds: number;
  },
): Promise<Invite> {
  const { rows } = await db.query<InviteRow>(
    `INSERT INTO store_invites (id, store_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) RETURNING *`,
    [
      invite.id,
      invite.storeId,
      invite.email,
      invite.role,
      invite.tokenHash,
      invite.invitedBy,
      invite.lifetimeSeconds,
    ],
  );
  return toInvite(rows[0]!);
}

export async function listPendingInvites(db: Queryable, storeId: string): Promise<Invite[]> {
  const { rows } = await db.query<InviteRow>(
    `SELECT * FROM store_invites WHERE store_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL
       AND expires_at > now() ORDER BY created_at`,
    [storeId],
  );
  return rows.map(toInvite);
}

/** The invite a token names, locked, with whether it has expired (the database's clock). */
export async function findInviteByTokenForUpdate(
  db: Queryable,
  tokenHash: string,
): Promise<(Invite & { expired: boolean }) | null> {
  const { rows } = await db.query<InviteRow & { expired: boolean }>(
    `SELECT *, expires_at <= now() AS expired FROM store_invites WHERE token_hash = $1 FOR UPDATE`,
    [tokenHash],
  );
  return rows[0] ? { ...toInvite(rows[0]), expired: rows[0].expired } : null;
}

export async function markAccepted(db: Queryable, inviteId: string, userId: string) {
  await db.query('UPDATE store_invites SET accepted_at = now(), accepted_by = $2 WHERE id = $1', [
    inviteId,
    userId,
  ]);
}

/** Revokes a pending invite of this store; false when there is none to revoke. */
export async function revokeInvite(
  db: Queryable,
  storeId: string,
  inviteId: string,
): Promise<Invite | null> {
  const { rows } = await db.query<InviteRow>(
    `UPDATE store_invites SET revoked_at = now()
     WHERE id = $1 AND store_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING *`,
    [inviteId, storeId],
  );
  return rows[0] ? toInvite(rows[0]) : null;
}

export interface AuditRecord {
  id: string;
  storeId: string;
  actorId: string | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
  /** When it happened, if not now (an action another service reported over the bus). */
  at?: Date;
}
/** Idempotent on the id: an action reported twice over the bus is one entry. */
export async function insertAudit(db: Queryable, entry: AuditRecord): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (id, store_id, actor_id, action, target, details, ip, user_agent, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, now())) ON CONFLICT (id) DO NOTHING`,
    [
      entry.id,
      entry.storeId,
      entry.actorId,
      entry.action,
      entry.target,
      JSON.stringify(entry.details),
      entry.ip,
      entry.userAgent?.slice(0, 512) ?? null,
      entry.at ?? null,
    ],
  );
}

/**
 * Where the previous page ended: its last entry's time in microseconds (a Date's milliseconds
 * would skip entries written within the same millisecond) and id.
 */
export interface AuditCursor {
  createdMicros: string;
  id: string;
}

const MICROS = '(extract(epoch FROM a.created_at) * 1000000)::bigint';

/** A page of the store's audit log, newest first, optionally one actor's entries only. */
export async function listAudit(
  db: Queryable,
  storeId: string,
  options: { limit: number; actorId?: string; before?: AuditCursor },
) {
  const { rows } = await db.query<{
    id: string;
    actor_id: string | null;
    actor_email: string | null;
    action: string;
    target: string | null;
    details: Record<string, unknown>;
    ip: string | null;
    user_agent: string | null;
    created_at: Date;
    created_micros: string;
  }>(
    `SELECT a.*, u.email AS actor_email, ${MICROS} AS created_micros
     FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
     WHERE a.store_id = $1 AND ($2::uuid IS NULL OR a.actor_id = $2)
       AND ($3::bigint IS NULL OR (${MICROS}, a.id) < ($3::bigint, $4::uuid))
     ORDER BY a.created_at DESC, a.id DESC LIMIT $5`,
    [
      storeId,
      options.actorId ?? null,
      options.before?.createdMicros ?? null,
      options.before?.id ?? null,
      options.limit,
    ],
  );
  return rows.map((row) => ({
    id: row.id,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    action: row.action,
    target: row.target,
    details: row.details,
    ip: row.ip,
    userAgent: row.user_agent,
    createdAt: row.created_at,
    cursor: { createdMicros: row.created_micros, id: row.id },
  }));
}

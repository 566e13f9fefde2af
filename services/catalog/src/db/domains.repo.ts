import type { DomainStatus } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

export type RecordCheck = 'ok' | 'missing' | 'wrong';

export interface StoreDomainRow {
  sellerId: string;
  host: string;
  token: string;
  status: DomainStatus;
  sellerEmail: string;
  /** Billing's latest word on the seller's plan, else the plan their token named at save. */
  plan: string;
  /** The store's handle (the page the domain shows); null if the brand was never saved. */
  handle: string | null;
  lastCheck: { ownership: RecordCheck; routing: RecordCheck; message: string } | null;
  lastCheckedAt: Date | null;
  verifiedAt: Date | null;
  failedChecks: number;
}

const SELECT_DOMAIN = `
  SELECT d.seller_id, d.host, d.token, d.status, d.seller_email, d.ownership_check,
         d.routing_check, d.check_message, d.last_checked_at, d.verified_at, d.failed_checks,
         coalesce(p.plan, d.plan_at_save) AS plan, b.handle
    FROM store_domains d
    LEFT JOIN seller_plans p ON p.user_id = d.seller_id AND NOT p.deleted
    LEFT JOIN store_brands b ON b.seller_id = d.seller_id`;

interface Row {
  seller_id: string;
  host: string;
  token: string;
  status: DomainStatus;
  seller_email: string;
  ownership_check: RecordCheck | null;
  routing_check: RecordCheck | null;
  check_message: string | null;
  last_checked_at: Date | null;
  verified_at: Date | null;
  failed_checks: number;
  plan: string;
  handle: string | null;
}

const toDomain = (row: Row): StoreDomainRow => ({
  sellerId: row.seller_id,
  host: row.host,
  token: row.token,
  status: row.status,
  sellerEmail: row.seller_email,
  plan: row.plan,
  handle: row.handle,
  lastCheck:
    row.ownership_check && row.routing_check
      ? {
          ownership: row.ownership_check,
          routing: row.routing_check,
          message: row.check_message ?? '',
        }
      : null,
  lastCheckedAt: row.last_checked_at,
  verifiedAt: row.verified_at,
  failedChecks: row.failed_checks,
});

export async function findDomainOf(
  db: Queryable,
  sellerId: string,
  { forUpdate = false } = {},
): Promise<StoreDomainRow | null> {
  const { rows } = await db.query<Row>(
    `${SELECT_DOMAIN} WHERE d.seller_id = $1${forUpdate ? ' FOR UPDATE OF d' : ''}`,
    [sellerId],
  );
  return rows[0] ? toDomain(rows[0]) : null;
}

export async function findDomainByHost(
  db: Queryable,
  host: string,
): Promise<StoreDomainRow | null> {
  const { rows } = await db.query<Row>(`${SELECT_DOMAIN} WHERE d.host = $1`, [host]);
  return rows[0] ? toDomain(rows[0]) : null;
}

/**
 * The seller's domain becomes `host`, pending, with a fresh token (a new host starts over); a
 * host another store holds raises 23505.
 */
export async function saveDomain(
  db: Queryable,
  domain: {
    sellerId: string;
    host: string;
    token: string;
    sellerEmail: string;
    planAtSave: string;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO store_domains (seller_id, host, token, seller_email, plan_at_save)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (seller_id) DO UPDATE SET host = excluded.host, token = excluded.token,
       status = 'pending', seller_email = excluded.seller_email,
       plan_at_save = excluded.plan_at_save, ownership_check = NULL, routing_check = NULL,
       check_message = NULL, last_checked_at = NULL, verified_at = NULL, failed_checks = 0,
       created_at = now()`,
    [domain.sellerId, domain.host, domain.token, domain.sellerEmail, domain.planAtSave],
  );
}

export async function deleteDomain(db: Queryable, sellerId: string): Promise<string | null> {
  const { rows } = await db.query<{ host: string }>(
    'DELETE FROM store_domains WHERE seller_id = $1 RETURNING host',
    [sellerId],
  );
  return rows[0]?.host ?? null;
}

/** A check's outcome and the state it leads to. */
export async function recordCheck(
  db: Queryable,
  sellerId: string,
  outcome: {
    status: DomainStatus;
    ownership: RecordCheck;
    routing: RecordCheck;
    message: string;
    checkedAt: Date;
    verifiedAt: Date | null;
    failedChecks: number;
  },
): Promise<void> {
  await db.query(
    `UPDATE store_domains SET status = $2, ownership_check = $3, routing_check = $4,
       check_message = $5, last_checked_at = $6, verified_at = $7, failed_checks = $8
     WHERE seller_id = $1`,
    [
      sellerId,
      outcome.status,
      outcome.ownership,
      outcome.routing,
      outcome.message,
      outcome.checkedAt,
      outcome.verifiedAt,
      outcome.failedChecks,
    ],
  );
}

/** A check DNS could not answer: when and why, nothing else changes. */
export async function recordUnanswered(
  db: Queryable,
  sellerId: string,
  message: string,
  checkedAt: Date,
): Promise<void> {
  await db.query(
    'UPDATE store_domains SET check_message = $2, last_checked_at = $3 WHERE seller_id = $1',
    [sellerId, message, checkedAt],
  );
}

export async function updateSellerEmail(
  db: Queryable,
  sellerId: string,
  sellerEmail: string,
): Promise<void> {
  await db.query('UPDATE store_domains SET seller_email = $2 WHERE seller_id = $1', [
    sellerId,
    sellerEmail,
  ]);
}

/** Domains not looked at since `before` (a clock firing's time), oldest check first. */
export async function domainsCheckedBefore(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ seller_id: string }>(
    `SELECT seller_id FROM store_domains
      WHERE last_checked_at IS NULL OR last_checked_at < $1
      ORDER BY last_checked_at NULLS FIRST LIMIT $2`,
    [before, limit],
  );
  return rows.map((row) => row.seller_id);
}

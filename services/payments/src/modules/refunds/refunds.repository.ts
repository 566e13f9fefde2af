import type { Queryable } from '@lockdrop/db';

/** `reversed`: a chargeback the seller later won (its sale stands again). */
export type RefundStatus = 'requested' | 'pending' | 'succeeded' | 'failed' | 'reversed';

/** A refund gives back a purchase, or a charge of a subscription (a seller's plan period). */
export interface Refund {
  id: string;
  purchaseId: string | null;
  chargeId: string | null;
  kind: 'refund' | 'chargeback';
  status: RefundStatus;
  amountMinor: number;
  currency: string;
  provider: string;
  providerRefundId: string | null;
  failureReason: string | null;
  requestedBy: string | null;
  requestedAt: Date;
  completedAt: Date | null;
  checks: number;
  correlationId: string;
}

const COLUMNS = `id, purchase_id AS "purchaseId", charge_id AS "chargeId", kind, status, amount_minor AS "amountMinor", currency, provider,
  provider_refund_id AS "providerRefundId", failure_reason AS "failureReason", requested_by AS "requestedBy",
  requested_at AS "requestedAt", completed_at AS "completedAt", checks, correlation_id AS "correlationId"`;

export async function insertRefund(
  db: Queryable,
  refund: Omit<Refund, 'completedAt' | 'checks' | 'failureReason'> & { nextCheckAt: Date | null },
): Promise<void> {
  await db.query(
    `INSERT INTO refunds (id, purchase_id, kind, status, amount_minor, currency, provider, provider_refund_id,
       requested_by, requested_at, next_check_at, correlation_id, charge_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      refund.id,
      refund.purchaseId,
      refund.kind,
      refund.status,
      refund.amountMinor,
      refund.currency,
      refund.provider,
      refund.providerRefundId,
      refund.requestedBy,
      refund.requestedAt,
      refund.nextCheckAt,
      refund.correlationId,
      refund.chargeId,
    ],
  );
}

export async function findRefund(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Refund | null> {
  const { rows } = await db.query<Refund>(
    `SELECT ${COLUMNS} FROM refunds WHERE id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** The subscription charge's live (requested or pending) refund, if any. */
export async function findLiveChargeRefund(
  db: Queryable,
  chargeId: string,
): Promise<Refund | null> {
  const { rows } = await db.query<Refund>(
    `SELECT ${COLUMNS} FROM refunds WHERE charge_id = $1 AND status IN ('requested', 'pending')`,
    [chargeId],
  );
  return rows[0] ?? null;
}

/** The provider transaction a refund gives money back from (its purchase's or its charge's). */
export async function refundedTransactionOf(db: Queryable, refund: Refund): Promise<string | null> {
  const { rows } = await db.query<{ transactionId: string }>(
    refund.chargeId
      ? 'SELECT provider_transaction_id AS "transactionId" FROM subscription_charges WHERE id = $1'
      : 'SELECT provider_transaction_id AS "transactionId" FROM purchases WHERE id = $1',
    [refund.chargeId ?? refund.purchaseId],
  );
  return rows[0]?.transactionId ?? null;
}

/** The purchase's live (requested or pending) refund, if any. */
export async function findLiveRefund(db: Queryable, purchaseId: string): Promise<Refund | null> {
  const { rows } = await db.query<Refund>(
    `SELECT ${COLUMNS} FROM refunds WHERE purchase_id = $1 AND status IN ('requested', 'pending')`,
    [purchaseId],
  );
  return rows[0] ?? null;
}

export async function markRefundPending(
  db: Queryable,
  id: string,
  providerRefundId: string | null,
  nextCheckAt: Date,
): Promise<void> {
  await db.query(
    `UPDATE refunds SET status = 'pending', provider_refund_id = coalesce($2, provider_refund_id), next_check_at = $3
     WHERE id = $1 AND status IN ('requested', 'pending')`,
    [id, providerRefundId, nextCheckAt],
  );
}

export async function finishRefund(
  db: Queryable,
  id: string,
  outcome: {
    status: 'succeeded' | 'failed';
    providerRefundId: string | null;
    reason: string | null;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `UPDATE refunds SET status = $2, provider_refund_id = coalesce($3, provider_refund_id), failure_reason = $4,
       completed_at = $5, next_check_at = NULL
     WHERE id = $1`,
    [id, outcome.status, outcome.providerRefundId, outcome.reason, outcome.at],
  );
}

/**
 * Claims refunds whose provider state is due for a check: the claim pushes their next check
 * out by `leaseSeconds`, so two replicas never ask about the same refund at once.
 */
export async function claimDueRefunds(
  db: Queryable,
  now: Date,
  limit: number,
  leaseSeconds: number,
): Promise<Refund[]> {
  const { rows } = await db.query<Refund>(
    `UPDATE refunds SET next_check_at = $1::timestamptz + make_interval(secs => $3), checks = checks + 1
     WHERE id IN (
       SELECT id FROM refunds WHERE status IN ('requested', 'pending') AND next_check_at <= $1
       ORDER BY next_check_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [now, limit, leaseSeconds],
  );
  return rows;
}

export async function scheduleRefundCheck(
  db: Queryable,
  id: string,
  at: Date,
  checkedAt: Date | null = null,
): Promise<void> {
  await db.query(
    `UPDATE refunds SET next_check_at = $2, last_checked_at = coalesce($3, last_checked_at)
     WHERE id = $1 AND status IN ('requested', 'pending')`,
    [id, at, checkedAt],
  );
}

/**
 * Marks a live refund as needing an operator (once; later calls keep the first time). Returns
 * whether this call escalated it.
 */
export async function escalateRefund(db: Queryable, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE refunds SET escalated_at = $2
     WHERE id = $1 AND escalated_at IS NULL AND status IN ('requested', 'pending')`,
    [id, at],
  );
  return (rowCount ?? 0) > 0;
}

export interface UnresolvedRefund {
  id: string;
  purchaseId: string | null;
  chargeId: string | null;
  status: 'requested' | 'pending';
  provider: string;
  providerTransactionId: string;
  providerRefundId: string | null;
  amountMinor: number;
  currency: string;
  requestedAt: Date;
  escalatedAt: Date;
  lastCheckedAt: Date | null;
  nextCheckAt: Date | null;
  checks: number;
}

/** Live refunds the provider has not resolved past the horizon: the operator's list. */
export async function listUnresolvedRefunds(db: Queryable): Promise<UnresolvedRefund[]> {
  const { rows } = await db.query<UnresolvedRefund>(
    `SELECT r.id, r.purchase_id AS "purchaseId", r.charge_id AS "chargeId", r.status, r.provider,
       coalesce(p.provider_transaction_id, c.provider_transaction_id) AS "providerTransactionId",
       r.provider_refund_id AS "providerRefundId",
       r.amount_minor AS "amountMinor", r.currency, r.requested_at AS "requestedAt",
       r.escalated_at AS "escalatedAt", r.last_checked_at AS "lastCheckedAt",
       r.next_check_at AS "nextCheckAt", r.checks
     FROM refunds r LEFT JOIN purchases p ON p.id = r.purchase_id
       LEFT JOIN subscription_charges c ON c.id = r.charge_id
     WHERE r.escalated_at IS NOT NULL AND r.status IN ('requested', 'pending')
     ORDER BY r.escalated_at`,
  );
  return rows;
}

export async function countUnresolvedRefunds(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM refunds
     WHERE escalated_at IS NOT NULL AND status IN ('requested', 'pending')`,
  );
  return rows[0]?.count ?? 0;
}

/** Makes the live refunds of a provider transaction due now (the provider told us something). */
export async function refundsDueNowFor(
  db: Queryable,
  provider: string,
  transactionId: string,
  now: Date,
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE refunds r SET next_check_at = $3
     WHERE r.status IN ('requested', 'pending')
       AND (r.purchase_id IN (SELECT id FROM purchases WHERE provider = $1 AND provider_transaction_id = $2)
         OR r.charge_id IN (SELECT id FROM subscription_charges WHERE provider = $1 AND provider_transaction_id = $2))`,
    [provider, transactionId, now],
  );
  return rowCount ?? 0;
}

import type { PayoutMethod, PayoutStatus } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { keysetPage } from '../../db/keyset.js';

export interface StoredDestination {
  id: string;
  sellerId: string;
  method: PayoutMethod;
  bankCode: string | null;
  bankName: string | null;
  accountName: string | null;
  /** The secret fields (account number, e-mail, account id) as JSON, sealed by the secret box. */
  sealedSecret: string;
  label: string;
  accountNumberMasked: string | null;
  emailMasked: string | null;
  accountIdMasked: string | null;
  /** Where payout e-mails go: the seller's account e-mail when the destination was saved. */
  notifyEmail: string;
  createdAt: Date;
  payoutsHeldUntil: Date | null;
}

const DESTINATION_COLUMNS = `id, seller_id AS "sellerId", method, bank_code AS "bankCode", bank_name AS "bankName",
  account_name AS "accountName", sealed_secret AS "sealedSecret", label,
  account_number_masked AS "accountNumberMasked", email_masked AS "emailMasked",
  account_id_masked AS "accountIdMasked", notify_email AS "notifyEmail", created_at AS "createdAt",
  payouts_held_until AS "payoutsHeldUntil"`;

/** The seller's current destination; `forUpdate` serialises payouts and changes for one seller. */
export async function findCurrentDestination(
  db: Queryable,
  sellerId: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredDestination | null> {
  const { rows } = await db.query<StoredDestination>(
    `SELECT ${DESTINATION_COLUMNS} FROM payout_destinations
     WHERE seller_id = $1 AND replaced_at IS NULL ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [sellerId],
  );
  return rows[0] ?? null;
}

export async function findDestination(
  db: Queryable,
  id: string,
): Promise<StoredDestination | null> {
  const { rows } = await db.query<StoredDestination>(
    `SELECT ${DESTINATION_COLUMNS} FROM payout_destinations WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Retires the current destination (if any) and inserts its replacement. */
export async function replaceDestination(
  db: Queryable,
  destination: StoredDestination,
): Promise<void> {
  await db.query(
    `UPDATE payout_destinations SET replaced_at = $2 WHERE seller_id = $1 AND replaced_at IS NULL`,
    [destination.sellerId, destination.createdAt],
  );
  await db.query(
    `INSERT INTO payout_destinations (id, seller_id, method, bank_code, bank_name, account_name, sealed_secret,
       label, account_number_masked, email_masked, account_id_masked, notify_email, created_at, payouts_held_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      destination.id,
      destination.sellerId,
      destination.method,
      destination.bankCode,
      destination.bankName,
      destination.accountName,
      destination.sealedSecret,
      destination.label,
      destination.accountNumberMasked,
      destination.emailMasked,
      destination.accountIdMasked,
      destination.notifyEmail,
      destination.createdAt,
      destination.payoutsHeldUntil,
    ],
  );
}

/** Sellers with a destination and money released to available: candidates for a payout run. */
export async function sellersWithDestinations(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ sellerId: string }>(
    `SELECT seller_id AS "sellerId" FROM payout_destinations WHERE replaced_at IS NULL ORDER BY seller_id`,
  );
  return rows.map((row) => row.sellerId);
}

export interface StoredPayout {
  id: string;
  sellerId: string;
  destinationId: string;
  method: PayoutMethod;
  destinationLabel: string;
  status: PayoutStatus;
  amountMinor: number;
  currency: string;
  sourceAmountMinor: number;
  sourceCurrency: string;
  fxRate: string | null;
  trigger: 'scheduled' | 'withdraw';
  runId: string;
  provider: string | null;
  providerTransferId: string | null;
  failureReason: string | null;
  createdAt: Date;
  submittedAt: Date | null;
  completedAt: Date | null;
  /** Set while the provider has neither confirmed nor denied the transfer (issue 30). */
  outcomeUnknownSince: Date | null;
  outcomeUnknownReason: string | null;
  /** Test-mode earnings: sent only through the sandbox payout provider. */
  testMode: boolean;
}

const PAYOUT_COLUMNS = `id, seller_id AS "sellerId", destination_id AS "destinationId", method,
  destination_label AS "destinationLabel", status, amount_minor AS "amountMinor", currency,
  source_amount_minor AS "sourceAmountMinor", source_currency AS "sourceCurrency", fx_rate AS "fxRate",
  trigger, run_id AS "runId", provider, provider_transfer_id AS "providerTransferId",
  failure_reason AS "failureReason", created_at AS "createdAt", submitted_at AS "submittedAt",
  completed_at AS "completedAt", outcome_unknown_since AS "outcomeUnknownSince",
  outcome_unknown_reason AS "outcomeUnknownReason", test_mode AS "testMode"`;

export async function insertPayout(db: Queryable, payout: StoredPayout): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO payouts (id, seller_id, destination_id, method, destination_label, status, amount_minor, currency,
       source_amount_minor, source_currency, fx_rate, trigger, run_id, created_at, test_mode)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (run_id, seller_id, source_currency, test_mode) DO NOTHING`,
    [
      payout.id,
      payout.sellerId,
      payout.destinationId,
      payout.method,
      payout.destinationLabel,
      payout.status,
      payout.amountMinor,
      payout.currency,
      payout.sourceAmountMinor,
      payout.sourceCurrency,
      payout.fxRate,
      payout.trigger,
      payout.runId,
      payout.createdAt,
      payout.testMode,
    ],
  );
  return rowCount === 1;
}

export async function findPayout(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredPayout | null> {
  const { rows } = await db.query<StoredPayout>(
    `SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE id = $1 ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function listPayouts(
  db: Queryable,
  sellerId: string,
  limit: number,
): Promise<StoredPayout[]> {
  const { rows } = await db.query<StoredPayout>(
    `SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE seller_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
    [sellerId, limit],
  );
  return rows;
}

/** One page of a seller's payouts of one mode, newest first (keyset, the public API's list). */
export function listPayoutsPage(
  db: Queryable,
  seller: { sellerId: string; testMode: boolean },
  page: { startingAfter?: string; limit: number },
): Promise<{ data: StoredPayout[]; has_more: boolean } | null> {
  return keysetPage<StoredPayout>(db, {
    table: 'payouts',
    columns: PAYOUT_COLUMNS,
    orderBy: 'created_at',
    scope: { seller_id: seller.sellerId, test_mode: seller.testMode },
    filters: [],
    ...page,
  });
}

export async function markPayoutSubmitted(
  db: Queryable,
  id: string,
  transfer: { provider: string; providerTransferId: string; at: Date },
): Promise<void> {
  await db.query(
    `UPDATE payouts SET status = 'submitted', provider = $2, provider_transfer_id = $3, submitted_at = $4
     WHERE id = $1 AND status = 'created'`,
    [id, transfer.provider, transfer.providerTransferId, transfer.at],
  );
  // The provider showed the transfer: whatever was unknown about it is known now.
  await db.query(
    `UPDATE payouts SET outcome_unknown_since = NULL, outcome_unknown_reason = NULL
     WHERE id = $1 AND outcome_unknown_since IS NOT NULL AND provider_transfer_id = $2`,
    [id, transfer.providerTransferId],
  );
}

/** Flags a payout in progress whose outcome the provider left open; the first time is kept. */
export async function markPayoutOutcomeUnknown(
  db: Queryable,
  id: string,
  unknown: { provider: string; reason: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE payouts SET outcome_unknown_since = coalesce(outcome_unknown_since, $3),
       outcome_unknown_reason = $4, provider = coalesce(provider, $2)
     WHERE id = $1 AND status IN ('created', 'submitted')`,
    [id, unknown.provider, unknown.at, unknown.reason],
  );
  return rowCount === 1;
}

/** Payouts whose outcome is unknown, oldest first: what an operator looks into. */
export async function listUnknownPayouts(db: Queryable): Promise<StoredPayout[]> {
  const { rows } = await db.query<StoredPayout>(
    `SELECT ${PAYOUT_COLUMNS} FROM payouts
     WHERE outcome_unknown_since IS NOT NULL AND status IN ('created', 'submitted')
     ORDER BY outcome_unknown_since, id`,
  );
  return rows;
}

export async function countUnknownPayouts(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM payouts
     WHERE outcome_unknown_since IS NOT NULL AND status IN ('created', 'submitted')`,
  );
  return rows[0]?.n ?? 0;
}

export async function completePayout(
  db: Queryable,
  id: string,
  outcome: {
    status: 'paid' | 'failed';
    provider: string;
    providerTransferId: string | null;
    failureReason: string | null;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `UPDATE payouts SET status = $2, provider = $3, provider_transfer_id = coalesce($4, provider_transfer_id),
       failure_reason = $5, outcome_unknown_since = NULL, outcome_unknown_reason = NULL,
       completed_at = $6, submitted_at = coalesce(submitted_at, $6)
     WHERE id = $1`,
    [
      id,
      outcome.status,
      outcome.provider,
      outcome.providerTransferId,
      outcome.failureReason,
      outcome.at,
    ],
  );
}

/**
 * The seller's available balance per currency and mode: a `seller_available` line belongs to test
 * money when its journal is a test-mode purchase's (release, refund) or a test-mode payout's
 * (payout, payout_failed). Test and live money are never paid out together.
 */
export async function availableByMode(
  db: Queryable,
  sellerId: string,
): Promise<{ currency: string; testMode: boolean; availableMinor: number }[]> {
  const { rows } = await db.query<{ currency: string; testMode: boolean; availableMinor: string }>(
    `SELECT l.currency, coalesce(p.test_mode, po.test_mode, false) AS "testMode",
            (-sum(l.amount_minor))::bigint AS "availableMinor"
     FROM ledger_entries l
     LEFT JOIN purchases p ON p.id = l.purchase_id
     LEFT JOIN payouts po ON po.id = l.payout_id
     WHERE l.seller_id = $1 AND l.account = 'seller_available'
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [sellerId],
  );
  return rows.map((row) => ({ ...row, availableMinor: Number(row.availableMinor) }));
}

/** Paid-out totals per currency (what reached the seller's destination). */
export async function paidOutTotals(
  db: Queryable,
  sellerId: string,
  testMode: boolean | null = null,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ currency: string; total: number }>(
    `SELECT currency, sum(amount_minor)::bigint AS total FROM payouts
     WHERE seller_id = $1 AND status = 'paid' AND ($2::boolean IS NULL OR test_mode = $2)
     GROUP BY currency`,
    [sellerId, testMode],
  );
  return new Map(rows.map((row) => [row.currency, row.total]));
}

/** The seller's last "Withdraw now", to keep it to one a day. */
export async function lastWithdrawalAt(db: Queryable, sellerId: string): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT max(created_at) AS at FROM payouts WHERE seller_id = $1 AND trigger = 'withdraw'`,
    [sellerId],
  );
  return rows[0]?.at ?? null;
}

export interface MaturedSale {
  purchaseId: string;
  sellerId: string;
  currency: string;
  /** The seller's line of the payment journal (a credit, so negative), minus nothing. */
  earningsMinor: number;
}

/**
 * Paid sales whose refund window and hold have passed and whose earnings are still pending,
 * locked in one order. A concurrent release or refund holding a row is waited for, never
 * skipped: a payout run that skipped it would see the sale still pending and pay out too little
 * (after the wait the row is re-checked, so a sale released or refunded meanwhile drops out).
 */
export async function lockMaturedSales(
  db: Queryable,
  options: { paidBefore: Date; sellerId?: string; newSeller?: NewSellerHold },
): Promise<MaturedSale[]> {
  const hold = options.newSeller ?? { days: 0, hours: 0 };
  const { rows } = await db.query<MaturedSale>(
    `SELECT p.id AS "purchaseId", p.seller_id AS "sellerId", p.currency,
            -l.amount_minor AS "earningsMinor"
     FROM purchases p
     JOIN ledger_entries l ON l.purchase_id = p.id AND l.kind = 'payment' AND l.account = 'seller_earnings'
     WHERE p.status = 'paid' AND p.earnings_released_at IS NULL AND p.paid_at <= $1
       AND ($2::uuid IS NULL OR p.seller_id = $2)
       AND p.paid_at <= $1 - ${NEW_SELLER_EXTRA_HOLD('p', '$3', '$4')}
     ORDER BY p.paid_at, p.id
     FOR UPDATE OF p`,
    [options.paidBefore, options.sellerId ?? null, hold.days, hold.hours],
  );
  return rows;
}

/** A new seller's extra hold: sales in their first `days` (from their first sale) wait `hours` more. */
export interface NewSellerHold {
  days: number;
  hours: number;
}

/** SQL: the extra hold of purchase `alias` (an interval), with the days and hours as parameters. */
const NEW_SELLER_EXTRA_HOLD = (alias: string, days: string, hours: string) =>
  `CASE WHEN ${alias}.paid_at < (SELECT min(f.paid_at) FROM purchases f WHERE f.seller_id = ${alias}.seller_id)
       + make_interval(days => ${days}::int)
     THEN make_interval(hours => ${hours}::int) ELSE interval '0' END`;

/**
 * When each of the seller's pending earnings becomes available (refund window, hold and any
 * new-seller hold), summed per currency and moment: what the balances screen shows.
 */
export async function pendingReleases(
  db: Queryable,
  sellerId: string,
  options: { baseHoldHours: number; newSeller: NewSellerHold; testMode?: boolean | null },
): Promise<{ currency: string; amountMinor: number; availableAt: Date }[]> {
  const { rows } = await db.query<{ currency: string; amountMinor: string; availableAt: Date }>(
    `SELECT p.currency, (-sum(l.amount_minor))::bigint AS "amountMinor",
            p.paid_at + make_interval(hours => $2::int) + ${NEW_SELLER_EXTRA_HOLD('p', '$3', '$4')}
              AS "availableAt"
     FROM purchases p
     JOIN ledger_entries l ON l.purchase_id = p.id AND l.kind = 'payment' AND l.account = 'seller_earnings'
     WHERE p.seller_id = $1 AND p.status = 'paid' AND p.earnings_released_at IS NULL
       AND ($5::boolean IS NULL OR p.test_mode = $5)
     GROUP BY p.currency, 3 ORDER BY 3, p.currency`,
    [
      sellerId,
      options.baseHoldHours,
      options.newSeller.days,
      options.newSeller.hours,
      options.testMode ?? null,
    ],
  );
  return rows.map((row) => ({ ...row, amountMinor: Number(row.amountMinor) }));
}

/** For the velocity limit: how many payouts reached the seller, and when the last one was made. */
export async function payoutHistory(
  db: Queryable,
  sellerId: string,
): Promise<{ paid: number; lastCreatedAt: Date | null }> {
  const { rows } = await db.query<{ paid: number; lastCreatedAt: Date | null }>(
    `SELECT count(*) FILTER (WHERE status = 'paid')::int AS paid,
            max(created_at) FILTER (WHERE status <> 'failed') AS "lastCreatedAt"
     FROM payouts WHERE seller_id = $1`,
    [sellerId],
  );
  return rows[0] ?? { paid: 0, lastCreatedAt: null };
}

export async function markEarningsReleased(
  db: Queryable,
  purchaseId: string,
  at: Date,
): Promise<void> {
  await db.query('UPDATE purchases SET earnings_released_at = $2 WHERE id = $1', [purchaseId, at]);
}

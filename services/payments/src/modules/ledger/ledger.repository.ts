import { randomUUID } from 'node:crypto';
import type { Queryable } from '@lockdrop/db';
import type { LedgerLine } from './journals.js';

export type JournalKind =
  | 'payment'
  | 'refund'
  | 'release'
  | 'payout'
  | 'payout_paid'
  | 'payout_failed'
  | 'plan_payment'
  | 'plan_refund'
  /** A chargeback the seller won: the refund journal of the chargeback, undone. */
  | 'dispute_won';

/**
 * A journal belongs to one purchase (payment, refund, release), one payout, or one charge of a
 * seller's plan subscription (plan_payment, plan_refund).
 */
export type JournalOwner = { purchaseId: string } | { payoutId: string } | { chargeId: string };

/**
 * Posts one journal (all lines or none: the caller's transaction). The deferred trigger refuses
 * a commit whose journal does not sum to zero in one currency; the unique constraints refuse a
 * second journal of the same kind for a purchase, or per currency for a payout.
 */
export async function postJournal(
  db: Queryable,
  owner: JournalOwner,
  kind: JournalKind,
  currency: string,
  lines: LedgerLine[],
): Promise<void> {
  await postJournals(db, [{ owner, kind, currency, lines }]);
}

export interface NewJournal {
  owner: JournalOwner;
  kind: JournalKind;
  currency: string;
  lines: LedgerLine[];
}

/**
 * Posts many journals in one statement: each round trip to Postgres costs a socket write, which
 * the webhook benchmark found to be most of a settlement's CPU (issues 11 and 31). Each journal
 * still gets its own id, so the balance check at commit judges each one on its own.
 */
export async function postJournals(db: Queryable, journals: NewJournal[]): Promise<void> {
  const values: unknown[] = [];
  const rows: string[] = [];
  for (const { owner, kind, currency, lines } of journals) {
    const journalId = randomUUID();
    const purchaseId = 'purchaseId' in owner ? owner.purchaseId : null;
    const payoutId = 'payoutId' in owner ? owner.payoutId : null;
    const chargeId = 'chargeId' in owner ? owner.chargeId : null;
    for (const line of lines) {
      const fields = [
        journalId,
        purchaseId,
        payoutId,
        chargeId,
        kind,
        line.account,
        line.sellerId,
        line.amountMinor,
        currency,
      ];
      const first = values.length + 1;
      values.push(...fields);
      rows.push(`(${fields.map((_, index) => `$${first + index}`).join(', ')})`);
    }
  }
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO ledger_entries (journal_id, purchase_id, payout_id, charge_id, kind, account, seller_id, amount_minor, currency)
     VALUES ${rows.join(', ')}`,
    values,
  );
}

export async function journalLines(
  db: Queryable,
  purchaseId: string,
  kind: JournalKind,
): Promise<LedgerLine[]> {
  const { rows } = await db.query<LedgerLine>(
    `SELECT account, seller_id AS "sellerId", amount_minor AS "amountMinor"
     FROM ledger_entries WHERE purchase_id = $1 AND kind = $2 ORDER BY id`,
    [purchaseId, kind],
  );
  return rows;
}

export interface SellerAccountTotals {
  currency: string;
  /** Credits are negative in the ledger; these are what the platform owes the seller. */
  pendingMinor: number;
  availableMinor: number;
  inTransitMinor: number;
}

/** The seller's balances per currency, summed from the ledger (the one source of truth). */
export async function sellerAccountTotals(
  db: Queryable,
  sellerId: string,
  testMode: boolean | null = null,
): Promise<SellerAccountTotals[]> {
  // A line's mode is its purchase's or its payout's (as payouts keep test and live money apart).
  const { rows } = await db.query<SellerAccountTotals>(
    `SELECT l.currency,
            (-coalesce(sum(l.amount_minor) FILTER (WHERE l.account = 'seller_earnings'), 0))::bigint AS "pendingMinor",
            (-coalesce(sum(l.amount_minor) FILTER (WHERE l.account = 'seller_available'), 0))::bigint AS "availableMinor",
            (-coalesce(sum(l.amount_minor) FILTER (WHERE l.account = 'seller_in_transit'), 0))::bigint AS "inTransitMinor"
     FROM ledger_entries l
     LEFT JOIN purchases p ON $2::boolean IS NOT NULL AND p.id = l.purchase_id
     LEFT JOIN payouts po ON $2::boolean IS NOT NULL AND po.id = l.payout_id
     WHERE l.seller_id = $1 AND ($2::boolean IS NULL OR coalesce(p.test_mode, po.test_mode, false) = $2)
     GROUP BY l.currency ORDER BY l.currency`,
    [sellerId, testMode],
  );
  return rows;
}

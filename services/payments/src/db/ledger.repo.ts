import { randomUUID } from 'node:crypto';
import type { Queryable } from '@lockdrop/db';
import type { LedgerLine } from '../domain/fees.js';

export interface LedgerEntry extends LedgerLine {
  journalId: string;
  kind: 'payment' | 'refund';
}

/**
 * Posts one journal (all lines or none: the caller's transaction). The deferred trigger refuses
 * a commit whose journal does not sum to zero; UNIQUE (purchase, kind, account) refuses a second
 * journal of the same kind for a purchase.
 */
export async function postJournal(
  db: Queryable,
  purchaseId: string,
  kind: LedgerEntry['kind'],
  currency: string,
  lines: LedgerLine[],
): Promise<void> {
  const journalId = randomUUID();
  for (const line of lines) {
    await db.query(
      `INSERT INTO ledger_entries (journal_id, purchase_id, kind, account, seller_id, amount_minor, currency)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [journalId, purchaseId, kind, line.account, line.sellerId, line.amountMinor, currency],
    );
  }
}

export async function journalLines(
  db: Queryable,
  purchaseId: string,
  kind: LedgerEntry['kind'],
): Promise<LedgerLine[]> {
  const { rows } = await db.query<LedgerLine>(
    `SELECT account, seller_id AS "sellerId", amount_minor AS "amountMinor"
     FROM ledger_entries WHERE purchase_id = $1 AND kind = $2 ORDER BY id`,
    [purchaseId, kind],
  );
  return rows;
}

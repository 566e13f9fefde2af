import type { Queryable } from '@lockdrop/db';

/**
 * Gives the browser's new receipt key the purchase, and takes over what its previous key (if
 * any) still opened, so one browser can hold several receipts while its key changes every time:
 * a key planted in a victim's browser never learns the victim's purchase.
 */
export async function openReceiptSession(
  db: Queryable,
  session: {
    keyHash: string;
    previousKeyHash: string | null;
    purchaseId: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  if (session.previousKeyHash) {
    await db.query(
      'UPDATE receipt_sessions SET key_hash = $1 WHERE key_hash = $2 AND expires_at > $3 AND purchase_id <> $4',
      [session.keyHash, session.previousKeyHash, session.now, session.purchaseId],
    );
    await db.query('DELETE FROM receipt_sessions WHERE key_hash = $1', [session.previousKeyHash]);
  }
  await db.query(
    `INSERT INTO receipt_sessions (key_hash, purchase_id, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (key_hash, purchase_id) DO UPDATE SET expires_at = excluded.expires_at`,
    [session.keyHash, session.purchaseId, session.expiresAt],
  );
}

export async function receiptSessionOpens(
  db: Queryable,
  keyHash: string,
  purchaseId: string,
  now: Date,
): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM receipt_sessions WHERE key_hash = $1 AND purchase_id = $2 AND expires_at > $3',
    [keyHash, purchaseId, now],
  );
  return rows.length > 0;
}

import type { SecretBox } from '@lockdrop/auth';
import type { Queryable } from '@lockdrop/db';
import { destinationSealContext } from './destinations.js';

export interface ResealReport {
  checked: number;
  resealed: number;
  /** Rows no listed key opens (a key dropped too early, or a row tampered with): left as they are. */
  unreadable: string[];
}

const PAGE = 500;

/**
 * Seals every payout destination's details again under the first key of PAYOUT_ENCRYPTION_KEYS
 * and bound to its row — rows sealed before details were bound, and rows under an older key
 * (rotation: prepend the new key, run this, then drop the old one). A row that changed while it
 * was being re-sealed is left for the next run; running it twice changes nothing the second time.
 */
export async function resealDestinations(db: Queryable, box: SecretBox): Promise<ResealReport> {
  const report: ResealReport = { checked: 0, resealed: 0, unreadable: [] };
  let after: string | null = null;
  for (;;) {
    const { rows }: { rows: Array<{ id: string; sellerId: string; sealedSecret: string }> } =
      await db.query<{ id: string; sellerId: string; sealedSecret: string }>(
        `SELECT id, seller_id AS "sellerId", sealed_secret AS "sealedSecret"
       FROM payout_destinations WHERE $1::uuid IS NULL OR id > $1 ORDER BY id LIMIT $2`,
        [after, PAGE],
      );
    if (rows.length === 0) return report;
    for (const row of rows) {
      report.checked += 1;
      if (!box.needsReseal(row.sealedSecret)) continue;
      const context = destinationSealContext(row);
      let plaintext: string;
      try {
        plaintext = box.open(row.sealedSecret, context);
      } catch {
        report.unreadable.push(row.id);
        continue;
      }
      const { rowCount } = await db.query(
        `UPDATE payout_destinations SET sealed_secret = $3 WHERE id = $1 AND sealed_secret = $2`,
        [row.id, row.sealedSecret, box.seal(plaintext, context)],
      );
      report.resealed += rowCount ?? 0;
    }
    after = rows[rows.length - 1]!.id;
  }
}

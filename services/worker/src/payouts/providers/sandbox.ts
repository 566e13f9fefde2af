import type { PayoutInstruction } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import type { PayoutAdapter, Transfer } from './types.js';

interface Row {
  id: number;
  outcome: 'successful' | 'failed';
  failureReason: string | null;
  completeAt: Date;
  now: Date;
}

/**
 * Payouts that move no money: a transfer completes `delayMs` after it was created, decided at
 * creation. A bank account ending in 0000, or a Payoneer/Wise e-mail whose name ends in
 * "+fail", fails with a reason, so failures can be seen end to end. State lives in the
 * worker's schema (like a provider's own database), so restarts and retries see one transfer.
 */
export function createSandboxPayouts(options: { pool: Pool; delayMs: number }): PayoutAdapter {
  const toTransfer = (row: Row): Transfer => {
    const done = row.now >= row.completeAt;
    return {
      providerTransferId: `SBX-${row.id}`,
      status: done ? row.outcome : 'pending',
      failureReason: done && row.outcome === 'failed' ? row.failureReason : null,
    };
  };
  const select = `SELECT id, outcome, failure_reason AS "failureReason", complete_at AS "completeAt", now() AS now
    FROM sandbox_transfers`;

  const find = async (reference: string): Promise<Transfer | null> => {
    const { rows } = await options.pool.query<Row>(`${select} WHERE reference = $1`, [reference]);
    return rows[0] ? toTransfer(rows[0]) : null;
  };

  return {
    name: 'sandbox',
    pollAfterMs: options.delayMs + 250,
    findByReference: find,
    async create(instruction: PayoutInstruction) {
      const failure = sandboxFailure(instruction.destination);
      await options.pool.query(
        `INSERT INTO sandbox_transfers (reference, amount_minor, currency, outcome, failure_reason, complete_at)
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6::float8 / 1000))
         ON CONFLICT (reference) DO NOTHING`,
        [
          instruction.payoutId,
          instruction.amountMinor,
          instruction.currency,
          failure ? 'failed' : 'successful',
          failure,
          options.delayMs,
        ],
      );
      return (await find(instruction.payoutId))!;
    },
    async get(_providerTransferId, payoutId) {
      const transfer = await find(payoutId);
      if (!transfer) throw new Error(`sandbox: no transfer for payout ${payoutId}`);
      return transfer;
    },
  };
}

function sandboxFailure(destination: PayoutInstruction['destination']): string | null {
  if (destination.method === 'bank')
    return destination.accountNumber.endsWith('0000')
      ? 'The bank rejected the transfer: account •••• 0000 cannot receive payments (sandbox: account numbers ending in 0000 always fail). Check your account number.'
      : null;
  return destination.email.split('@')[0]!.endsWith('+fail')
    ? `The ${destination.method === 'wise' ? 'Wise' : 'Payoneer'} account for this e-mail cannot receive payouts (sandbox: e-mails ending in +fail always fail). Check your e-mail.`
    : null;
}

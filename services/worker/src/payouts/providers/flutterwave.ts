import type { PayoutInstruction } from '@lockdrop/contracts';
import { minorToDecimalString } from '@lockdrop/money';
import { z } from 'zod';
import { providerCall } from './http.js';
import {
  PayoutProviderUnavailableError,
  PayoutRejectedError,
  type PayoutAdapter,
  type Transfer,
} from './types.js';

export interface FlutterwaveTransfersOptions {
  /** `https://api.flutterwave.com/v3` (the key decides test or live mode). */
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
}

const envelope = z.object({
  status: z.string(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

const transferShape = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  status: z.string(),
  reference: z.string().nullish(),
  complete_message: z.string().nullish(),
});

/** payments-contract §5: NEW → PENDING → SUCCESSFUL | FAILED; the reason is `complete_message`. */
function toTransfer(data: unknown): Transfer {
  const transfer = transferShape.parse(data);
  const status = transfer.status.toUpperCase();
  return {
    providerTransferId: transfer.id,
    status: status === 'SUCCESSFUL' ? 'successful' : status === 'FAILED' ? 'failed' : 'pending',
    failureReason:
      status === 'FAILED'
        ? transfer.complete_message?.trim() || 'The bank did not accept the transfer'
        : null,
  };
}

/**
 * Bank payouts in NGN through Flutterwave transfers (payments-contract §5). The payout id is the
 * transfer `reference`: Flutterwave refuses a second transfer with it, and the job looks it up
 * before creating one, so a retry after a timeout (Flutterwave may answer 503 after 28 s and
 * still make the transfer) never pays twice.
 */
export function createFlutterwaveTransfers(options: FlutterwaveTransfersOptions): PayoutAdapter {
  const base = options.baseUrl.replace(/\/+$/, '');

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const answer = await providerCall(
      'flutterwave',
      `${base}${path}`,
      {
        method,
        body,
        headers: { authorization: `Bearer ${options.secretKey}` },
        timeoutMs: options.timeoutMs,
      },
      (error) => envelope.safeParse(error).data?.message,
    );
    if (answer === null) return null;
    const parsed = envelope.safeParse(answer);
    if (!parsed.success)
      throw new PayoutProviderUnavailableError(`flutterwave ${method} ${path}: unreadable answer`);
    if (parsed.data.status !== 'success')
      throw new PayoutRejectedError(parsed.data.message ?? 'Flutterwave refused the transfer');
    return parsed.data.data;
  }

  async function findByReference(payoutId: string): Promise<Transfer | null> {
    // [?] The list endpoint's `reference` filter is not in the contract reference; the match
    // below checks the reference itself, so an unfiltered page cannot match another transfer.
    const data = await call('GET', `/transfers?reference=${encodeURIComponent(payoutId)}`);
    const match = z
      .array(transferShape)
      .catch([])
      .parse(data)
      .find((transfer) => transfer.reference === payoutId);
    return match ? toTransfer(match) : null;
  }

  return {
    name: 'flutterwave',
    findByReference,
    async create(instruction: PayoutInstruction) {
      const { destination } = instruction;
      if (destination.method !== 'bank')
        throw new PayoutRejectedError('Flutterwave pays bank accounts only');
      try {
        return toTransfer(
          await call('POST', '/transfers', {
            account_bank: destination.bankCode,
            account_number: destination.accountNumber,
            amount: minorToDecimalString(instruction.amountMinor, instruction.currency),
            currency: instruction.currency,
            debit_currency: instruction.currency,
            narration: instruction.narration,
            reference: instruction.payoutId,
            beneficiary_name: destination.accountName,
          }),
        );
      } catch (error) {
        // A transfer with this reference exists (an earlier attempt got through): that one it is.
        if (error instanceof PayoutRejectedError && /reference|duplicate/i.test(error.message)) {
          const existing = await findByReference(instruction.payoutId);
          if (existing) return existing;
        }
        throw error;
      }
    },
    async get(providerTransferId) {
      const data = await call('GET', `/transfers/${encodeURIComponent(providerTransferId)}`);
      if (data == null)
        throw new PayoutProviderUnavailableError(
          `flutterwave: transfer ${providerTransferId} not found`,
        );
      return toTransfer(data);
    },
  };
}

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

export interface WiseTransfersOptions {
  /** `https://api.wise.com` (sandbox `https://api.wise-sandbox.com`). */
  baseUrl: string;
  apiToken: string;
  profileId: string;
  timeoutMs: number;
}

const transferShape = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  status: z.string(),
  customerTransactionId: z.string().nullish(),
});

/** Wise transfer states: sent → successful; returned or cancelled → failed; anything else pending. */
const FAILED_STATES: Record<string, string> = {
  cancelled: 'Wise cancelled the transfer',
  bounced_back:
    'The receiving account returned the transfer. Check your Wise e-mail and account ID.',
  funds_refunded: 'Wise refunded the transfer to us. Check your Wise e-mail and account ID.',
  charged_back: 'The transfer was charged back',
};

function toTransfer(data: unknown): Transfer {
  const transfer = transferShape.parse(data);
  const failed = FAILED_STATES[transfer.status];
  return {
    providerTransferId: transfer.id,
    status:
      transfer.status === 'outgoing_payment_sent' ? 'successful' : failed ? 'failed' : 'pending',
    failureReason: failed ?? null,
  };
}

/**
 * Wise (payments-contract, Wise section): quote → e-mail recipient → transfer with
 * `customerTransactionId` = payout id (Wise answers a repeated id with the transfer it already
 * made) → fund from the Wise balance. A transfer that is already funded is not funded again.
 */
export function createWiseTransfers(options: WiseTransfersOptions): PayoutAdapter {
  const base = options.baseUrl.replace(/\/+$/, '');
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    providerCall(
      'wise',
      `${base}${path}`,
      {
        method,
        body,
        headers: { authorization: `Bearer ${options.apiToken}` },
        timeoutMs: options.timeoutMs,
      },
      (error) =>
        z
          .looseObject({ errors: z.array(z.looseObject({ message: z.string() })).min(1) })
          .safeParse(error).data?.errors[0]?.message,
    );

  /**
   * [?] The transfer list has no documented customerTransactionId filter: page through it
   * (`offset`, 100 at a time, newest first) and match it ourselves. If the list stops advancing
   * (only the newest 100), what was read is all we know: null then means "not among those", and
   * the caller relies on Wise answering a repeated customerTransactionId with the transfer it
   * already made, so a create never makes a second one.
   */
  async function findByReference(payoutId: string): Promise<Transfer | null> {
    const seen = new Set<string>();
    for (let offset = 0; offset < 100 * 500; offset += 100) {
      const data = await call(
        'GET',
        `/v1/transfers?profile=${encodeURIComponent(options.profileId)}&limit=100&offset=${offset}`,
      );
      const page = z.array(transferShape).safeParse(data);
      if (!page.success)
        throw new PayoutProviderUnavailableError(`wise: transfer list at ${offset} unreadable`);
      const match = page.data.find((transfer) => transfer.customerTransactionId === payoutId);
      if (match) return toTransfer(match);
      const fresh = page.data.filter((transfer) => !seen.has(transfer.id));
      if (page.data.length < 100 || fresh.length === 0) return null;
      for (const transfer of fresh) seen.add(transfer.id);
    }
    throw new PayoutProviderUnavailableError(
      `wise: transfer list too long to search for ${payoutId}`,
    );
  }

  return {
    name: 'wise',
    findByReference,
    async create(instruction: PayoutInstruction) {
      const { destination } = instruction;
      if (destination.method !== 'wise')
        throw new PayoutRejectedError('Wise pays Wise accounts only');
      const amount = minorToDecimalString(instruction.amountMinor, instruction.currency);
      const quote = z.looseObject({ id: z.string() }).parse(
        await call('POST', `/v3/profiles/${encodeURIComponent(options.profileId)}/quotes`, {
          sourceCurrency: instruction.currency,
          targetCurrency: instruction.currency,
          targetAmount: Number(amount),
          payOut: 'BALANCE',
        }),
      );
      const recipient = z.looseObject({ id: z.union([z.number(), z.string()]) }).parse(
        await call('POST', '/v1/accounts', {
          profile: Number(options.profileId),
          currency: instruction.currency,
          type: 'email',
          accountHolderName: destination.email,
          details: { email: destination.email },
        }),
      );
      const transfer = transferShape.parse(
        await call('POST', '/v1/transfers', {
          targetAccount: recipient.id,
          quoteUuid: quote.id,
          customerTransactionId: instruction.payoutId,
          details: { reference: instruction.narration.slice(0, 35) },
        }),
      );
      if (transfer.status === 'incoming_payment_waiting') {
        await call(
          'POST',
          `/v3/profiles/${encodeURIComponent(options.profileId)}/transfers/${transfer.id}/payments`,
          { type: 'BALANCE' },
        );
        return { providerTransferId: transfer.id, status: 'pending', failureReason: null };
      }
      return toTransfer(transfer);
    },
    async get(providerTransferId) {
      const data = await call('GET', `/v1/transfers/${encodeURIComponent(providerTransferId)}`);
      if (data == null) throw new PayoutRejectedError(`Wise has no transfer ${providerTransferId}`);
      return toTransfer(data);
    },
  };
}

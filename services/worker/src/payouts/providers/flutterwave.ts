import type { PayoutInstruction } from '@lockdrop/contracts';
import { minorToDecimalString } from '@lockdrop/money';
import { z } from 'zod';
import { providerCall } from './http.js';
import {
  PayoutOutcomeUnknownError,
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
  meta: z.unknown().optional(),
});

const pageInfo = z.object({
  page_info: z.object({ total_pages: z.coerce.number().int().min(0) }),
});

/** More pages than this and the lookup gives up for now (retried later), never "not found". */
const MAX_LIST_PAGES = 500;

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
    return (await callEnvelope(method, path, body))?.data;
  }

  async function callEnvelope(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<z.infer<typeof envelope> | null> {
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
    return parsed.data;
  }

  /**
   * [?] The list endpoint's `reference` filter is not in the contract reference: it may be
   * ignored, so every page is read (`page=`, `meta.page_info.total_pages`) and the reference is
   * matched exactly here. null only after the last page was read; a page that cannot be read
   * or understood is "unavailable", never "none".
   */
  async function findByReference(payoutId: string): Promise<Transfer | null> {
    for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
      const answer = await callEnvelope(
        'GET',
        `/transfers?reference=${encodeURIComponent(payoutId)}&page=${page}`,
      );
      const transfers = z.array(transferShape).safeParse(answer?.data);
      if (!answer || !transfers.success)
        throw new PayoutProviderUnavailableError(
          `flutterwave: transfer list page ${page} unreadable`,
        );
      const match = transfers.data.find((transfer) => transfer.reference === payoutId);
      if (match) return toTransfer(match);
      const info = pageInfo.safeParse(answer.meta);
      // Without page_info the answer is one page only when it is empty or under a page's size:
      // assume nothing and page on until an empty page.
      const totalPages = info.success ? info.data.page_info.total_pages : null;
      if (totalPages !== null ? page >= totalPages : transfers.data.length === 0) return null;
    }
    throw new PayoutProviderUnavailableError(
      `flutterwave: more than ${MAX_LIST_PAGES} transfer pages; lookup of ${payoutId} not finished`,
    );
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
        // A transfer with this reference exists (an earlier attempt got through): that one it
        // is. If the lookup cannot find it, the transfer still exists: the outcome is unknown,
        // never a refusal (that would give the money back while the transfer completes).
        if (error instanceof PayoutRejectedError && /reference|duplicate/i.test(error.message)) {
          const existing = await findByReference(instruction.payoutId);
          if (existing) return existing;
          throw new PayoutOutcomeUnknownError(
            `flutterwave refused a duplicate reference ${instruction.payoutId} that no lookup finds: ${error.message}`,
          );
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

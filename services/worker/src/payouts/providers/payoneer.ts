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

export interface PayoneerPayoutsOptions {
  /** `https://api.payoneer.com` (the v4 API lives under /v4). */
  baseUrl: string;
  /** OAuth2 client-credentials token endpoint [?: from integrator code, not official docs]. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  programId: string;
  timeoutMs: number;
}

const statusShape = z.looseObject({
  result: z.looseObject({
    status: z.string(),
    payout_id: z.union([z.string(), z.number()]).transform(String).optional(),
    reason: z.string().nullish(),
  }),
});

/** [?] Payoneer status words seen in integrations: Transferred / Completed, Cancelled / Failed / Declined. */
function toTransfer(payoutId: string, data: unknown): Transfer {
  const { result } = statusShape.parse(data);
  const status = result.status.toLowerCase();
  const done = status === 'transferred' || status === 'completed';
  const failed = ['cancelled', 'canceled', 'failed', 'declined', 'rejected'].includes(status);
  return {
    providerTransferId: result.payout_id ?? payoutId,
    status: done ? 'successful' : failed ? 'failed' : 'pending',
    failureReason: failed
      ? result.reason?.trim() || 'Payoneer did not accept the payout. Check your Payoneer e-mail.'
      : null,
  };
}

/**
 * Payoneer mass payouts (payments-contract, Payoneer section — integrator code, not official
 * docs): `client_reference_id` is the payout id, and the status is read by that id, so a retried
 * job finds the payout it already made. The payee is identified by the seller's Payoneer e-mail
 * [?: programs that register payees get a payee id instead].
 */
export function createPayoneerPayouts(options: PayoneerPayoutsOptions): PayoutAdapter {
  const base = options.baseUrl.replace(/\/+$/, '');
  const program = encodeURIComponent(options.programId);
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 30_000) return token.value;
    let response: Response;
    try {
      response = await fetch(options.tokenUrl, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=read write',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new PayoutProviderUnavailableError(`payoneer token: ${(error as Error).message}`);
    }
    const body = z
      .looseObject({ access_token: z.string(), expires_in: z.coerce.number().positive() })
      .safeParse(await response.json().catch(() => null));
    if (!response.ok || !body.success)
      throw new PayoutProviderUnavailableError(`payoneer token: HTTP ${response.status}`);
    token = { value: body.data.access_token, expiresAt: Date.now() + body.data.expires_in * 1000 };
    return token.value;
  }

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) =>
    providerCall(
      'payoneer',
      `${base}${path}`,
      {
        method,
        body,
        headers: { authorization: `Bearer ${await accessToken()}` },
        timeoutMs: options.timeoutMs,
      },
      (error) =>
        z
          .looseObject({
            error_description: z.string().optional(),
            description: z.string().optional(),
          })
          .safeParse(error).data?.error_description ??
        z.looseObject({ description: z.string() }).safeParse(error).data?.description,
    );

  async function findByReference(payoutId: string): Promise<Transfer | null> {
    const data = await call(
      'GET',
      `/v4/programs/${program}/payouts/${encodeURIComponent(payoutId)}/status`,
    );
    return data == null ? null : toTransfer(payoutId, data);
  }

  return {
    name: 'payoneer',
    findByReference,
    async create(instruction: PayoutInstruction) {
      const { destination } = instruction;
      if (destination.method !== 'payoneer')
        throw new PayoutRejectedError('Payoneer pays Payoneer accounts only');
      try {
        await call('POST', `/v4/programs/${program}/masspayouts`, {
          Payments: [
            {
              client_reference_id: instruction.payoutId,
              payee_id: destination.email,
              amount: Number(minorToDecimalString(instruction.amountMinor, instruction.currency)),
              currency: instruction.currency,
              description: instruction.narration,
            },
          ],
        });
      } catch (error) {
        // Payoneer already has a payout with this reference (an earlier attempt got through).
        if (!(error instanceof PayoutRejectedError && /duplicate|already/i.test(error.message)))
          throw error;
      }
      return (
        (await findByReference(instruction.payoutId)) ?? {
          providerTransferId: instruction.payoutId,
          status: 'pending',
          failureReason: null,
        }
      );
    },
    async get(_providerTransferId, payoutId) {
      const found = await findByReference(payoutId);
      if (!found) throw new PayoutProviderUnavailableError(`payoneer: no payout ${payoutId} yet`);
      return found;
    },
  };
}

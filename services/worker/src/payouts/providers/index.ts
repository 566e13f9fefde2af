import type { PayoutMethod } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import type { WorkerConfig } from '../../config.js';
import { createFlutterwaveTransfers } from './flutterwave.js';
import { createPayoneerPayouts } from './payoneer.js';
import { createSandboxPayouts } from './sandbox.js';
import { PayoutRejectedError, type PayoutAdapter } from './types.js';
import { createWiseTransfers } from './wise.js';

/** The adapter that carries each kind of destination. */
export interface PayoutAdapters {
  for(method: PayoutMethod): PayoutAdapter;
  /**
   * What carries test-mode payouts whatever PAYOUT_PROVIDER says: test money never reaches a
   * live provider. Defaults to the sandbox in the worker's schema.
   */
  sandbox?: PayoutAdapter;
}

/** A destination this deployment has no keys for: the payout fails, saying so, and the money stays available. */
function unavailable(method: string, name: PayoutAdapter['name']): PayoutAdapter {
  const refuse = () =>
    Promise.reject(
      new PayoutRejectedError(
        `Payouts to ${method} are not available yet. Choose a bank account in Settings.`,
      ),
    );
  return { name, findByReference: () => Promise.resolve(null), create: refuse, get: refuse };
}

export function createPayoutAdapters(config: WorkerConfig, pool: Pool): PayoutAdapters {
  if (config.PAYOUT_PROVIDER === 'sandbox') {
    const sandbox = createSandboxPayouts({ pool, delayMs: config.SANDBOX_PAYOUT_DELAY_MS });
    return { for: () => sandbox, sandbox };
  }
  const sandbox = createSandboxPayouts({ pool, delayMs: config.SANDBOX_PAYOUT_DELAY_MS });
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  const adapters: Record<PayoutMethod, PayoutAdapter> = {
    bank: createFlutterwaveTransfers({
      baseUrl: config.FLW_BASE_URL,
      secretKey: config.FLW_SECRET_KEY!,
      timeoutMs,
    }),
    wise:
      config.WISE_API_TOKEN && config.WISE_PROFILE_ID
        ? createWiseTransfers({
            baseUrl: config.WISE_BASE_URL,
            apiToken: config.WISE_API_TOKEN,
            profileId: config.WISE_PROFILE_ID,
            timeoutMs,
          })
        : unavailable('Wise', 'wise'),
    payoneer:
      config.PAYONEER_CLIENT_ID && config.PAYONEER_CLIENT_SECRET && config.PAYONEER_PROGRAM_ID
        ? createPayoneerPayouts({
            baseUrl: config.PAYONEER_BASE_URL,
            tokenUrl: config.PAYONEER_TOKEN_URL,
            clientId: config.PAYONEER_CLIENT_ID,
            clientSecret: config.PAYONEER_CLIENT_SECRET,
            programId: config.PAYONEER_PROGRAM_ID,
            timeoutMs,
          })
        : unavailable('Payoneer', 'payoneer'),
  };
  return { for: (method) => adapters[method], sandbox };
}

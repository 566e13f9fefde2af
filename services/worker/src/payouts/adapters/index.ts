import type { PayoutMethod } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import type { WorkerConfig } from '../../config.js';
import { createSandboxPayouts } from './sandbox.js';
import type { PayoutAdapter } from './types.js';

/** The adapter that carries each kind of destination. */
export interface PayoutAdapters {
  for(method: PayoutMethod): PayoutAdapter;
}

export function createPayoutAdapters(config: WorkerConfig, pool: Pool): PayoutAdapters {
  if (config.PAYOUT_PROVIDER === 'sandbox') {
    const sandbox = createSandboxPayouts({ pool, delayMs: config.SANDBOX_PAYOUT_DELAY_MS });
    return { for: () => sandbox };
  }
  throw new Error('PAYOUT_PROVIDER=live is not available in this build');
}

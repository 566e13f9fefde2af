// The two payout queues and what a payout job carries: shared by the consumer that fills them
// and the jobs that drain them.

/** Where a payout job is between attempts (BullMQ keeps it in the job's data). */
export interface SendPayoutData {
  payoutId: string;
  providerTransferId?: string;
  provider?: string;
  polls?: number;
}

export const PAYOUT_RUNS_QUEUE = 'payout-runs';
export const PAYOUTS_QUEUE = 'payouts';

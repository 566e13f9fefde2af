// The two payout queues and what a payout job carries: shared by the consumer that fills them
// and the jobs that drain them.

/** Where a payout job is between attempts (BullMQ keeps it in the job's data). */
export interface SendPayoutData {
  payoutId: string;
  /** Test-mode earnings (payout.requested): only the sandbox payout provider may carry them. */
  testMode?: boolean;
  providerTransferId?: string;
  provider?: string;
  polls?: number;
  /** A create was sent at least once: a later refusal says nothing about that one. */
  createSent?: boolean;
  /** The provider's answer left the outcome open; payments was told (payout.transfer_unknown). */
  unknown?: boolean;
}

export const PAYOUT_RUNS_QUEUE = 'payout-runs';
export const PAYOUTS_QUEUE = 'payouts';

import type { PayoutInstruction } from '@lockdrop/contracts';

export type TransferStatus = 'pending' | 'successful' | 'failed';

/** A transfer as the payout provider reports it. */
export interface Transfer {
  /** The provider's own id (Flutterwave transfer id, Wise transfer id, Payoneer payout id …). */
  providerTransferId: string;
  status: TransferStatus;
  /** For `failed`: the provider's reason, in words a seller can act on. */
  failureReason: string | null;
}

/**
 * One payout provider. Every call is keyed by the payout id, sent as the provider's own
 * idempotency reference (Flutterwave `reference`, Wise `customerTransactionId`, Payoneer
 * `client_reference_id`), so a retried or crashed job never creates a second transfer:
 * the job calls `findByReference` before `create`, and `create` treats the provider's
 * "duplicate reference" answer as "look it up".
 */
export interface PayoutAdapter {
  readonly name: 'sandbox' | 'flutterwave' | 'wise' | 'payoneer';
  /** When to look at a pending transfer first, if sooner than the worker's PAYOUT_POLL_MS. */
  readonly pollAfterMs?: number;
  /** The transfer made for this payout id, or null when the provider has none. */
  findByReference(payoutId: string): Promise<Transfer | null>;
  create(instruction: PayoutInstruction): Promise<Transfer>;
  /** The transfer's current state, fetched from the provider's API. */
  get(providerTransferId: string, payoutId: string): Promise<Transfer>;
}

/** Network error, timeout, 429 or 5xx: the job retries later with backoff; nothing is assumed. */
export class PayoutProviderUnavailableError extends Error {
  override name = 'PayoutProviderUnavailableError';
}

/**
 * The provider's answer leaves open whether a transfer exists (ARCHITECTURE §3a): e.g. it refused
 * a create as a duplicate reference, yet a lookup by that reference found nothing. The payout is
 * neither paid nor failed; the job reports it unknown and keeps asking the provider.
 */
export class PayoutOutcomeUnknownError extends Error {
  override name = 'PayoutOutcomeUnknownError';
}

/**
 * The provider refused the request for good (4xx with a reason: invalid account, unsupported
 * currency …): the payout fails with this message and the money goes back to available.
 */
export class PayoutRejectedError extends Error {
  override name = 'PayoutRejectedError';
}

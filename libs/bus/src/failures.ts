import { isOutage } from '@lockdrop/db';

/**
 * Why a handler failed decides what happens to the event. An outage (the database or the
 * network) is no fault of the event: it is retried for as long as the outage lasts and never
 * dead-lettered. Input that can never be handled goes to the dead-letter subject at once.
 * Anything else is retried a bounded number of times, then dead-lettered for an operator.
 */
export type FailureKind = 'transient' | 'poison' | 'unknown';

/** Thrown by a handler for an event it can never apply (it breaks a rule, not a dependency). */
export class PoisonEventError extends Error {
  override name = 'PoisonEventError';
}

export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof PoisonEventError) return 'poison';
  return isOutage(error) ? 'transient' : 'unknown';
}

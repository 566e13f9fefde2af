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

// Postgres: connection exceptions (08…), shutdown and start-up (57P01–57P03), too many
// connections (53300), serialization failures and deadlocks (40001, 40P01).
const TRANSIENT_SQLSTATE = /^(08\w{3}|57P0[123]|53300|40001|40P01)$/;
const TRANSIENT_SYSCALL = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
// node-postgres reports a lost or unobtainable connection in words, without a code.
const TRANSIENT_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i;

export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof PoisonEventError) return 'poison';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_SYSCALL.has(code)))
    return 'transient';
  if (error instanceof Error && TRANSIENT_MESSAGE.test(error.message)) return 'transient';
  return 'unknown';
}

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

/**
 * Whether `error` means a dependency is out of reach for now (the database, or the network to
 * it or to another service), not that the work itself is wrong: the one test behind a 503
 * (HTTP) and behind retrying an event for as long as an outage lasts (the bus).
 */
export function isOutage(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 4; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_SYSCALL.has(code)))
      return true;
    if (cause instanceof Error && TRANSIENT_MESSAGE.test(cause.message)) return true;
    if (cause instanceof AggregateError && cause.errors.some((inner) => isOutage(inner)))
      return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

// Turns a pino JSON line into one short human line; anything else passes through unchanged.
const LEVELS = {
  10: 'trace',
  20: 'debug',
  30: 'info ',
  40: '\x1b[33mwarn \x1b[0m',
  50: '\x1b[31merror\x1b[0m',
  60: '\x1b[41mfatal\x1b[0m',
};

export function formatLogLine(line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !('level' in entry)) return line;
  const time = new Date(entry.time ?? Date.now()).toISOString().slice(11, 19);
  const parts = [time, LEVELS[entry.level] ?? entry.level];
  if (entry.req) parts.push(`${entry.req.method} ${entry.req.url}`);
  if (entry.res)
    parts.push(
      `→ ${entry.res.statusCode}${entry.responseTime ? ` ${Math.round(entry.responseTime)}ms` : ''}`,
    );
  if (entry.msg && !entry.req && !entry.res) parts.push(entry.msg);
  if (entry.err) parts.push(`— ${describeError(entry.err)}`);
  if (entry.errorId) parts.push(`(errorId ${entry.errorId})`);
  return parts.join(' ');
}

/** pino's serialised error, or the plain message some loggers pass (the bus logs strings). */
function describeError(err) {
  if (typeof err !== 'object') return String(err);
  // An AggregateError (e.g. every address of a host refused) carries its reasons inside.
  const message = err.message || err.aggregateErrors?.map((inner) => inner.message).join('; ');
  return `${err.type ?? 'Error'}: ${message || err.code || 'no message'}`;
}

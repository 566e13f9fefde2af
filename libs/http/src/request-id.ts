import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Reuses the caller's request id (gateway → service) when it looks sane, so one id spans the hop. */
export function requestIdFrom(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  if (typeof incoming === 'string' && /^[\w.:-]{8,128}$/.test(incoming)) return incoming;
  return randomUUID();
}

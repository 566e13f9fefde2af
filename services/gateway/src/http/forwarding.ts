import { REQUEST_ID_HEADER } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

/** Set by the gateway alone (storefront reads); catalog trusts it because only the gateway reaches it. */
export const VISITOR_ID_HEADER = 'x-visitor-id';

/** What every proxied request carries upstream: the request id and the real client, never a client's claims. */
export function forwardedHeaders(
  request: Pick<FastifyRequest, 'id' | 'ip' | 'headers' | 'protocol'>,
  headers: IncomingHttpHeaders,
): IncomingHttpHeaders {
  const { [VISITOR_ID_HEADER]: _claimed, ...rest } = headers;
  return {
    ...rest,
    [REQUEST_ID_HEADER]: String(request.id),
    'x-forwarded-for': request.ip,
    'x-forwarded-host': request.headers.host ?? '',
    'x-forwarded-proto': request.protocol,
  };
}

/** The answer when a service cannot be reached: 502 in the shared error shape. */
export function sendUpstreamUnavailable(
  reply: {
    log: Pick<FastifyReply['log'], 'warn'>;
    status(code: number): { send(body: unknown): unknown };
  },
  upstream: string,
  error: unknown,
): void {
  reply.log.warn({ err: error, upstream }, 'upstream unavailable');
  void reply.status(502).send({
    error: {
      code: 'service_unavailable',
      message: `The ${upstream} service is not reachable right now`,
    },
  });
}

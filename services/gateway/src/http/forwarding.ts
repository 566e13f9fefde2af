import { ACCESS_COOKIE } from '@lockdrop/auth';
import { STORE_ORIGIN_HEADER, STORE_SELLER_HEADER } from '@lockdrop/contracts';
import { AppError, REQUEST_ID_HEADER } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

/** Set by the gateway alone (storefront reads); catalog trusts it because only the gateway reaches it. */
export const VISITOR_ID_HEADER = 'x-visitor-id';

/**
 * The Cookie header without the dashboard session's access cookie (buyers' own cookies stay).
 * Identity's refresh cookie is scoped to /api/auth, which a store's domain does not serve.
 */
function withoutSession(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  const kept = cookie
    .split(';')
    .filter((pair) => pair.split('=')[0]!.trim() !== ACCESS_COOKIE)
    .join(';')
    .trim();
  return kept || undefined;
}

/**
 * What every proxied request carries upstream: the request id and the real client, never a
 * client's claims. On a store's custom domain (issue 28) the store's origin and seller are the
 * gateway's word, and no session goes along: dashboard sessions never live on a seller's domain.
 */
export function forwardedHeaders(
  request: Pick<FastifyRequest, 'id' | 'ip' | 'headers' | 'protocol' | 'storeHost'>,
  headers: IncomingHttpHeaders,
): IncomingHttpHeaders {
  const {
    [VISITOR_ID_HEADER]: _claimed,
    [STORE_ORIGIN_HEADER]: _origin,
    [STORE_SELLER_HEADER]: _seller,
    ...rest
  } = headers;
  const forwarded: IncomingHttpHeaders = {
    ...rest,
    [REQUEST_ID_HEADER]: String(request.id),
    'x-forwarded-for': request.ip,
    'x-forwarded-host': request.headers.host ?? '',
    'x-forwarded-proto': request.protocol,
  };
  const store = request.storeHost;
  if (!store) return forwarded;
  const { authorization: _session, cookie, ...anonymous } = forwarded;
  const buyerCookies = withoutSession(cookie);
  return {
    ...anonymous,
    ...(buyerCookies ? { cookie: buyerCookies } : {}),
    [STORE_ORIGIN_HEADER]: store.origin,
    [STORE_SELLER_HEADER]: store.sellerId,
  };
}

/**
 * The answer when forwarding a request failed: the request's own fault found on the way (a
 * chunked body that passed the limit, body-limit.ts) as that error, anything else as the
 * service being unreachable, 502 in the shared error shape.
 */
export function sendForwardingError(
  reply: {
    log: Pick<FastifyReply['log'], 'warn'>;
    status(code: number): { send(body: unknown): unknown };
    send(body: unknown): unknown;
  },
  upstream: string,
  error: unknown,
): void {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof AppError && cause.status < 500) {
    void reply.send(cause);
    return;
  }
  reply.log.warn({ err: error, upstream }, 'upstream unavailable');
  void reply.status(502).send(upstreamUnavailable(upstream));
}

/** The 502's body, in the shared error shape (also written before Fastify: webhook-passthrough.ts). */
export function upstreamUnavailable(upstream: string) {
  return {
    error: {
      code: 'service_unavailable',
      message: `The ${upstream} service is not reachable right now`,
    },
  };
}

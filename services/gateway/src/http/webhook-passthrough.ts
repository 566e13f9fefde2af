import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import {
  REQUEST_DURATION_METRIC,
  REQUEST_ID_HEADER,
  requestIdFrom,
  type EarlyAnswer,
} from '@lockdrop/http';
import { Counter, type Histogram, type Registry } from 'prom-client';
import { rateLimitedError, type ReadBudget } from '../storefront/read-budget.js';
import type { Client } from './client.js';
import { forwardedHeaders, upstreamUnavailable } from './forwarding.js';

export const WEBHOOK_PREFIX = '/api/webhooks/';
const WEBHOOK_ROUTE = '/api/webhooks/:provider';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the Host, which the upstream connection sets. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

/**
 * Provider payment notifications passed to payments before Fastify builds a request (issue 31).
 * A flash sale is thousands of them a second from a few provider addresses, each needing
 * nothing of the gateway but a budget and a pipe: payments checks the signature on the raw
 * bytes and stores the event. Fastify's request, hooks and @fastify/reply-from cost the gateway
 * more than payments' whole answer did. Their own per-address budget
 * (`WEBHOOK_RATE_LIMIT_PER_MINUTE`): the site's 600 a minute would refuse a provider's storm, and
 * a refused notification is retried later, making the storm longer.
 *
 * A notification with a declared length within the body limit is passed here: the body streams
 * to payments over kept-alive connections, the answer streams back with the security headers,
 * `x-request-id` and `x-served-by`. Anything else — chunked, oversized — returns false and
 * Fastify's proxy route answers it under the same budget (app.ts).
 */
export function createWebhookPassthrough({
  upstreamUrl,
  budget,
  clientOf,
  headers,
  bodyLimitBytes,
  metrics,
  logger,
}: {
  upstreamUrl: string;
  budget: ReadBudget;
  clientOf: (request: IncomingMessage) => Client;
  /** What every answer carries: the API's security headers and `x-served-by`. */
  headers: Record<string, string>;
  bodyLimitBytes: number;
  metrics: Registry;
  logger: { warn(object: object, message: string): void };
}): EarlyAnswer & { close(): void } {
  const upstream = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const duration = metrics.getSingleMetric(REQUEST_DURATION_METRIC) as Histogram<
    'method' | 'route' | 'status'
  >;
  const passed = new Counter({
    name: 'gateway_webhooks_passed_total',
    help: 'Provider notifications passed to payments before Fastify, by answer status',
    labelNames: ['status'],
    registers: [metrics],
  });
  const common = Object.entries(headers).flat();

  const answer = (
    response: ServerResponse,
    requestId: string,
    status: number,
    extra: Record<string, string>,
    body: unknown,
  ) => {
    const text = JSON.stringify(body);
    const list = [...common, REQUEST_ID_HEADER, requestId];
    for (const name in extra) list.push(name, extra[name]!);
    list.push('content-type', 'application/json; charset=utf-8');
    list.push('content-length', String(Buffer.byteLength(text)));
    response.writeHead(status, list);
    response.end(text);
  };

  const pass: EarlyAnswer = (request, response) => {
    if (request.method !== 'POST' || !request.url?.startsWith(WEBHOOK_PREFIX)) return false;
    const declared = request.headers['content-length'];
    if (declared === undefined || request.headers['transfer-encoding'] !== undefined) return false;
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length > bodyLimitBytes) return false;
    const startedAt = performance.now();
    const requestId = requestIdFrom(request);
    const client = clientOf(request);
    const observe = () => {
      passed.inc({ status: String(response.statusCode) });
      duration.observe(
        { method: 'POST', route: WEBHOOK_ROUTE, status: String(response.statusCode) },
        (performance.now() - startedAt) / 1000,
      );
    };
    response.once('finish', observe);

    const allowed = budget.take(client.ip);
    if (!allowed.allowed) {
      const refusal = rateLimitedError(allowed.retryAfterSeconds);
      request.resume();
      answer(response, requestId, 429, allowed.headers, {
        error: { code: refusal.code, message: refusal.message },
      });
      return true;
    }

    // The proxy's one rule for what goes upstream (forwarding.ts); only our own hosts get here.
    const forwarded: IncomingHttpHeaders = {};
    const withClient = forwardedHeaders(
      {
        id: requestId,
        ip: client.ip,
        protocol: client.protocol,
        headers: request.headers,
        storeHost: null,
      },
      request.headers,
    );
    for (const [name, value] of Object.entries(withClient))
      if (value !== undefined && !HOP_BY_HOP.has(name)) forwarded[name] = value;

    const outgoing = httpRequest(
      {
        agent,
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: 'POST',
        path: request.url,
        headers: forwarded,
      },
      (reply) => {
        const list = [...common, REQUEST_ID_HEADER, requestId];
        for (const name of ['content-type', 'content-length', 'retry-after'] as const) {
          const value = reply.headers[name];
          if (typeof value === 'string') list.push(name, value);
        }
        response.writeHead(reply.statusCode ?? 502, list);
        reply.pipe(response);
        if ((reply.statusCode ?? 502) >= 500)
          logger.warn(
            { requestId, status: reply.statusCode, url: request.url },
            'payments refused a provider notification',
          );
      },
    );
    outgoing.on('error', (error) => {
      if (response.headersSent) return void response.destroy();
      logger.warn({ err: error, upstream: 'payments', requestId }, 'upstream unavailable');
      answer(response, requestId, 502, {}, upstreamUnavailable('payments'));
    });
    // The provider gave up: payments' answer would go nowhere.
    response.once('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    request.pipe(outgoing);
    return true;
  };

  return Object.assign(pass, { close: () => agent.destroy() });
}

import { Readable } from 'node:stream';
import fastifyProxy from '@fastify/http-proxy';
import {
  API_VERSIONS,
  apiKeyIntrospectionSchema,
  type ApiKeyIntrospection,
} from '@lockdrop/contracts';
import { AppError, REQUEST_ID_HEADER, type HttpServer } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { forwardedHeaders, sendForwardingError } from '../http/forwarding.js';
import type { Upstream } from '../route-table.js';
import { fingerprintOf, type Idempotency } from './idempotency.js';
import type { KeyCache } from './key-cache.js';

/** The public API's doors: which service owns which `/api/v1` resource (ARCHITECTURE §3a). */
export const apiV1Routes: { prefix: string; upstream: Upstream; upload?: boolean }[] = [
  { prefix: '/api/v1/products', upstream: 'catalog' },
  { prefix: '/api/v1/files', upstream: 'delivery', upload: true },
  { prefix: '/api/v1/sales', upstream: 'payments' },
  { prefix: '/api/v1/subscriptions', upstream: 'payments' },
  { prefix: '/api/v1/discount-codes', upstream: 'payments' },
  { prefix: '/api/v1/payouts', upstream: 'payments' },
  { prefix: '/api/v1/balances', upstream: 'payments' },
  { prefix: '/api/v1/analytics', upstream: 'analytics' },
  // Sellers' outgoing webhook endpoints are the worker's (it delivers them).
  { prefix: '/api/v1/webhook-endpoints', upstream: 'worker' },
];

export const API_VERSION_HEADER = 'lockdrop-version';
const KEY_BEARER = /^Bearer (ld_(?:live|test)_\S+)$/;

interface ApiCall {
  key: ApiKeyIntrospection;
  version: string;
  idempotency: { key: string; fingerprint: string } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiCall: ApiCall | null;
  }
}

const apiErrors = {
  keyRequired: () =>
    new AppError(
      'api_key_required',
      401,
      'The API takes an API key: Authorization: Bearer ld_live_… or ld_test_…',
    ),
  unknownVersion: (asked: string) =>
    new AppError(
      'unknown_api_version',
      400,
      `Unknown Lockdrop-Version ${asked}; known versions: ${API_VERSIONS.join(', ')}`,
    ),
  identityUnavailable: () =>
    new AppError('service_unavailable', 503, 'API keys cannot be checked right now; retry shortly'),
  rateLimitUnavailable: () =>
    new AppError(
      'rate_limit_unavailable',
      503,
      'This is paused for a moment while we cannot count requests; please try again shortly',
    ),
};

export interface ApiV1Options {
  identityUrl: string;
  upstreams: Record<Upstream, string>;
  redis: Redis;
  redisPrefix: string;
  cache: KeyCache;
  idempotency: Idempotency;
  perKeyPerMinute: number;
}

/** Asks identity what a key stands for; identity's own 401/403 pass through in the one shape. */
async function introspect(
  identityUrl: string,
  key: string,
  request: FastifyRequest,
): Promise<ApiKeyIntrospection> {
  let response: Response;
  try {
    response = await fetch(new URL('/internal/api-keys/introspect', identityUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': request.ip,
        [REQUEST_ID_HEADER]: String(request.id),
      },
      body: JSON.stringify({ key }),
      signal: AbortSignal.timeout(5_000),
    });
  } catch (error) {
    request.log.warn({ err: error }, 'identity unreachable for API key introspection');
    throw apiErrors.identityUnavailable();
  }
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string };
  } | null;
  if (response.status === 401 || response.status === 403)
    throw new AppError(
      body?.error?.code ?? 'invalid_api_key',
      response.status,
      body?.error?.message ?? 'Invalid, expired or revoked API key',
    );
  if (!response.ok) throw apiErrors.identityUnavailable();
  return apiKeyIntrospectionSchema.parse(body);
}

/** Fixed one-minute window per key in Redis, shared by every replica; separate from per-IP budgets. */
async function countRequest(
  { redis, redisPrefix, perKeyPerMinute }: ApiV1Options,
  keyId: string,
  reply: FastifyReply,
): Promise<void> {
  const now = Date.now();
  const window = Math.floor(now / 60_000);
  const counter = `${redisPrefix}key-rate:${keyId}:${window}`;
  let count: number;
  try {
    const results = await redis.multi().incr(counter).expire(counter, 61).exec();
    count = Number(results?.[0]?.[1] ?? 0);
  } catch {
    throw apiErrors.rateLimitUnavailable();
  }
  reply.header('x-ratelimit-limit', String(perKeyPerMinute));
  reply.header('x-ratelimit-remaining', String(Math.max(0, perKeyPerMinute - count)));
  if (count > perKeyPerMinute) {
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000));
    reply.header('retry-after', String(retryAfter));
    throw new AppError(
      'rate_limited',
      429,
      `This API key made too many requests; retry in ${retryAfter} seconds`,
    );
  }
}

async function readBody(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * `/api/v1/*`: an API key only (a session's cookie or bearer token never opens it), traded for
 * identity's short-lived internal token, which the owning service verifies like any access token
 * and whose scopes and mode `libs/auth` checks. Per-key rate limits, `Lockdrop-Version`, and
 * `Idempotency-Key` on POSTs.
 */
export async function registerApiV1(app: HttpServer, options: ApiV1Options): Promise<void> {
  app.decorateRequest('apiCall', null);
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const match = KEY_BEARER.exec(request.headers.authorization ?? '');
      if (!match) throw apiErrors.keyRequired();
      const asked = request.headers[API_VERSION_HEADER];
      if (typeof asked === 'string' && !(API_VERSIONS as readonly string[]).includes(asked))
        throw apiErrors.unknownVersion(asked);
      const presented = match[1]!;
      let key = options.cache.get(presented);
      if (!key) {
        key = await introspect(options.identityUrl, presented, request);
        options.cache.set(presented, key);
      }
      await countRequest(options, key.keyId, reply);
      const version = typeof asked === 'string' ? asked : key.apiVersion;
      reply.header(API_VERSION_HEADER, version);
      request.apiCall = { key, version, idempotency: null };
    });

    scope.addHook('preHandler', async (request, reply) => {
      const call = request.apiCall!;
      const idempotencyKey = request.headers['idempotency-key'];
      if (request.method !== 'POST' || typeof idempotencyKey !== 'string') return;
      // Uploads stream through unbuffered: their fingerprint is their declared size and type.
      // Not the boundary: clients draw a new one for every send (fetch's FormData, curl), so a
      // retry of the same upload would never match; its length is the same from one client.
      const contentType = request.headers['content-type'];
      let body: Buffer | string;
      if (contentType?.startsWith('multipart/form-data')) {
        body = `multipart/form-data ${request.headers['content-length'] ?? ''}`;
      } else {
        body = request.body
          ? await readBody(request.body as NodeJS.ReadableStream)
          : Buffer.alloc(0);
        request.body = Readable.from([body]);
      }
      const fingerprint = fingerprintOf(request.method, request.url, body);
      const outcome = await options.idempotency
        .begin(call.key.keyId, idempotencyKey, fingerprint)
        .catch((error: unknown) => {
          if (error instanceof AppError) throw error;
          throw apiErrors.rateLimitUnavailable();
        });
      if (outcome.kind === 'replay') {
        const { answer } = outcome;
        if (answer.contentType) reply.header('content-type', answer.contentType);
        return reply.header('idempotent-replayed', 'true').status(answer.status).send(answer.body);
      }
      call.idempotency = { key: idempotencyKey, fingerprint };
    });

    for (const route of apiV1Routes) {
      await scope.register(fastifyProxy, {
        upstream: options.upstreams[route.upstream],
        prefix: route.prefix,
        rewritePrefix: route.prefix,
        disableRequestLogging: true,
        replyOptions: {
          rewriteRequestHeaders: (request, headers) => {
            const {
              cookie: _cookie,
              authorization: _presented,
              ...rest
            } = forwardedHeaders(request, headers);
            const call = request.apiCall!;
            return {
              ...rest,
              authorization: `Bearer ${call.key.accessToken}`,
              [API_VERSION_HEADER]: call.version,
            };
          },
          onResponse: (request, reply, response) => {
            const call = request.apiCall;
            if (!call?.idempotency) return reply.send(response.stream);
            const { key, fingerprint } = call.idempotency;
            void readBody(response.stream)
              .then(async (body) => {
                await options.idempotency.finish(call.key.keyId, key, fingerprint, {
                  status: reply.statusCode,
                  contentType: String(reply.getHeader('content-type') ?? '') || null,
                  body: body.toString('utf8'),
                });
                reply.removeHeader('content-length');
                return reply.send(body);
              })
              .catch((error: unknown) => reply.send(error));
          },
          onError: (reply, { error }) => {
            const call = reply.request.apiCall;
            if (call?.idempotency)
              void options.idempotency.release(call.key.keyId, call.idempotency.key);
            sendForwardingError(reply, route.upstream, error);
          },
        },
      });
    }
  });
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pino } from 'pino';
import fastifySwagger from '@fastify/swagger';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerFactory,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { installErrorHandler, sendRouteNotFound, writeClientError } from './error-handler.js';
import { installInputGuard } from './input-guard.js';
import type { Registry } from 'prom-client';
import { installMetrics } from './metrics.js';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id.js';

/** A named dependency probe for `/readyz`; throws (or rejects) when the dependency is down. */
export type ReadinessCheck = () => Promise<unknown>;

export interface HttpServerOptions {
  /** Service name: logs, metrics labels and the OpenAPI title. */
  name: string;
  logLevel?: string;
  /** Where log lines go (stdout by default); tests read them from here. */
  logStream?: { write(line: string): void };
  readiness?: Record<string, ReadinessCheck>;
  bodyLimit?: number;
  /** The gateway proxies long-lived keep-alive connections; it must cut them on close. */
  forceCloseConnections?: boolean;
  /** Which proxies' X-Forwarded-* count: their addresses (e.g. 'loopback,uniquelocal') or a rule; see Fastify trustProxy. */
  trustProxy?: boolean | string | ((address: string, hop: number) => boolean);
  /** Replaces the JSON 404 for unmatched paths (the gateway falls back to the SPA). */
  notFoundHandler?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /**
   * Answers a request before Fastify builds anything for it, and says whether it did: the
   * gateway's storefront reads served from memory (issue 11). Only requests on the real socket
   * pass here; `inject` goes straight to Fastify.
   */
  answerEarly?: EarlyAnswer;
}

export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

export type HttpServer = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

const READINESS_TIMEOUT_MS = 2_000;

function requestSummary(request: { method?: string; url?: string }) {
  return { method: request.method, url: request.url };
}

function responseSummary(response: { statusCode?: number }) {
  return { statusCode: response.statusCode };
}
/** Probes and scrapes arrive every few seconds; logging them would drown real traffic. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry, served on `/metrics`: add a service's own counters here. */
    metricsRegistry: Registry;
    /** Adds a dependency probe to `/readyz` (for dependencies created after the server). */
    addReadinessCheck(name: string, check: ReadinessCheck): void;
  }
}

/**
 * The one Fastify factory every service uses: zod schemas (validation, serialisation,
 * OpenAPI), request ids, the shared error shape, `/healthz`, `/readyz`, `/metrics`,
 * `/openapi.json`. Routes are registered by the caller afterwards.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  /** Fastify's logger, once it exists, for an early answer that throws. */
  const logged: { by?: FastifyBaseLogger } = {};
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      base: { service: options.name },
      // A request or response is logged by method, URL and status only, so its credentials
      // (authorization, cookies, set-cookie) never reach a log line. Serializers rather than
      // `redact`: redaction cost ≈17 µs per line, an eighth of a gateway request (issue 11).
      serializers: { req: requestSummary, res: responseSummary, err: pino.stdSerializers.err },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: requestIdFrom,
    // One line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    forceCloseConnections: options.forceCloseConnections ?? 'idle',
    trustProxy: options.trustProxy ?? false,
    ...(options.answerEarly
      ? { serverFactory: serverAnsweringEarly(options.answerEarly, () => logged.by) }
      : {}),
    // Errors Node's HTTP parser raises before Fastify sees a request (oversized headers, garbage).
    clientErrorHandler: writeClientError,
    // Router-level refusals (a malformed URL, an over-long path parameter) in the same shape.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      reply.status(tooLong ? 414 : 400).send({
        error: tooLong
          ? { code: 'uri_too_long', message: 'Request URL is too long' }
          : { code: 'bad_request', message: 'The request URL is malformed' },
      });
    },
  }).withTypeProvider<ZodTypeProvider>();

  logged.by = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installInputGuard(app);
  app.setNotFoundHandler(options.notFoundHandler ?? sendRouteNotFound);
  // Hooks on every request take `done` rather than being async: no promise per hook per
  // request on the storefront's hot path (issue 11).
  app.addHook('onResponse', (request, reply, done) => {
    if (!QUIET_PATHS.has(request.url)) {
      const level = reply.statusCode >= 500 ? 'error' : 'info';
      request.log[level](
        {
          req: { method: request.method, url: request.url },
          res: { statusCode: reply.statusCode },
          responseTime: reply.elapsedTime,
        },
        'request completed',
      );
    }
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    // Which process answered: through the gateway this tells a service 404 from a gateway 404.
    reply.header('x-served-by', options.name);
    done();
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `Lockdrop ${options.name} API`, version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'ld_access' },
          // `/api/v1`: a seller's API key (`Authorization: Bearer ld_live_…` or `ld_test_…`).
          apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'ld_live_… / ld_test_…' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  const readiness = new Map(Object.entries(options.readiness ?? {}));
  app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
    readiness.set(name, check);
  });

  app.decorate('metricsRegistry', installMetrics(app, options.name));
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Which dependency is down is for the probe; why (addresses, driver messages) is for the log.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const results = await Promise.all(
      [...readiness].map(async ([name, check]) => {
        try {
          await withTimeout(check(), READINESS_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch (error) {
          request.log.warn({ dependency: name, err: error }, 'not ready');
          return [name, 'down'] as const;
        }
      }),
    );
    const checks = Object.fromEntries(results);
    const ready = results.every(([, state]) => state === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  return app;
}

/** Fastify's own HTTP/1 server, with `answerEarly` in front of its handler. */
function serverAnsweringEarly(
  answerEarly: EarlyAnswer,
  log: () => FastifyBaseLogger | undefined,
): FastifyServerFactory {
  return (handler, fastifyOptions) => {
    const server = createServer((request, response) => {
      try {
        if (answerEarly(request, response)) return;
      } catch (error) {
        log()?.error({ err: error, req: requestSummary(request) }, 'early answer failed');
        if (response.headersSent) return void response.destroy();
      }
      handler(request, response);
    });
    // What Fastify sets on the server it makes itself (fastify/lib/server.js).
    const timeouts = fastifyOptions as Record<
      'keepAliveTimeout' | 'requestTimeout' | 'connectionTimeout',
      number
    >;
    server.keepAliveTimeout = timeouts.keepAliveTimeout;
    server.requestTimeout = timeouts.requestTimeout;
    server.setTimeout(timeouts.connectionTimeout);
    return server;
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

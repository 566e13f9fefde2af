import fastifyProxy from '@fastify/http-proxy';
import fastifyRateLimit from '@fastify/rate-limit';
import {
  AppError,
  createHttpServer,
  sendRouteNotFound,
  type EarlyAnswer,
  type HttpServer,
} from '@lockdrop/http';
import { redisConnectionOptions } from '@lockdrop/config';
import { Redis } from 'ioredis';
import { registerApiV1, apiV1Routes } from './api-v1/door.js';
import { createIdempotency } from './api-v1/idempotency.js';
import { createKeyCache } from './api-v1/key-cache.js';
import { clientOf, trustFunction } from './http/client.js';
import { registerApiDocs } from './routes/api-docs.js';
import { installBodyLimits } from './http/body-limit.js';
import { installEdgeAdmission } from './http/edge-admission.js';
import { forwardedHeaders, sendForwardingError } from './http/forwarding.js';
import { createDomainDirectory, domainOriginOf, hostnameOf } from './http/custom-domains.js';
import { createMembershipCheck } from './http/store-members.js';
import { createWebhookPassthrough } from './http/webhook-passthrough.js';
import type { GatewayConfig } from './config.js';
import { routeTable, upstreamUrls, type ProxyRoute } from './route-table.js';
import { isApiAnswer, securityHeaders } from './http/security-headers.js';
import { registerSharePage } from './routes/share-page.js';
import { clientRoutes, htmlFileFor, registerSpa } from './routes/spa.js';
import { registerStoreDomains } from './routes/store-domains.js';
import { registerStorefront } from './routes/storefront.js';
import { createEarlyAnswers } from './storefront/early-answers.js';
import { createReadBudget, rateLimitedError } from './storefront/read-budget.js';
import { createSharePages } from './storefront/share-pages.js';
import { createStoreDomains, STORE_DOMAIN_CHANGES } from './storefront/store-domains.js';
import { startStorefront } from './storefront/storefront.js';
import { createVisitors } from './storefront/visitors.js';

const GATEWAY = 'gateway';

const identityPrefixes = routeTable
  .filter((route) => route.upstream === 'identity')
  .map((route) => route.prefix);
const identityOwns = (url: string) => identityPrefixes.some((prefix) => url.startsWith(prefix));

/** The one public entry point: the SPA, the API routed by prefix, security headers, limits. */
export async function buildApp(config: GatewayConfig): Promise<HttpServer> {
  /** Set once the storefront is up; until then Fastify answers everything. */
  let earlyAnswer: EarlyAnswer | null = null;
  /** Provider notifications, piped to payments before Fastify (http/webhook-passthrough.ts). */
  let passWebhook: EarlyAnswer | null = null;
  const isClientRoute = clientRoutes(config.WEB_DIST);
  const domains = createDomainDirectory({
    catalogUrl: config.CATALOG_URL,
    ownHosts: [new URL(config.PUBLIC_URL).hostname, ...config.GATEWAY_HOSTS],
    ttlMs: config.DOMAIN_CACHE_SECONDS * 1000,
  });
  const app = await createHttpServer({
    name: GATEWAY,
    // Our own hosts only: a store's domain needs the store's pages (routes/store-domains.ts),
    // and providers notify us at ours.
    answerEarly: (request, response) =>
      domains.isOwnHost(hostnameOf(request.headers.host)) &&
      ((passWebhook?.(request, response) ?? false) || (earlyAnswer?.(request, response) ?? false)),
    logLevel: config.LOG_LEVEL,
    // Keep-alive proxy connections would otherwise hold `close()` open (stack notes #7).
    forceCloseConnections: true,
    trustProxy: trustFunction(config.TRUST_PROXY),
    notFoundHandler: (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isPageRequest =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !pathname.startsWith('/api/') &&
        !/\.[a-z0-9]+$/i.test(pathname);
      if (!isPageRequest) return sendRouteNotFound(request, reply);
      // A path the app has no page for gets its not-found screen with an honest 404 (issue 29).
      return reply
        .status(isClientRoute(pathname) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .sendFile(htmlFileFor(config.WEB_DIST, pathname));
    },
  });

  const redis = new Redis({
    ...redisConnectionOptions(config),
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    lazyConnect: true,
  });
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
  await redis
    .connect()
    .catch((error) => app.log.error({ err: error }, 'redis unreachable at start'));
  app.addReadinessCheck('redis', () => redis.ping());
  app.addHook('onClose', async () => {
    redis.disconnect();
  });

  const storeDomains = createStoreDomains({
    catalogUrl: config.CATALOG_URL,
    ttlMs: config.DOMAIN_CACHE_SECONDS * 1000,
  });
  const httpsOnly = config.NODE_ENV === 'production';
  const keyCache = createKeyCache({ ttlMs: config.API_KEY_CACHE_SECONDS * 1000 });
  const memberships = createMembershipCheck({
    identityUrl: config.IDENTITY_URL,
    ttlMs: config.TEAM_MEMBERSHIP_CACHE_SECONDS * 1000,
  });
  const storefront = await startStorefront({
    natsUrl: config.NATS_URL,
    namespace: config.BUS_NAMESPACE,
    catalogUrl: config.CATALOG_URL,
    logger: app.log,
    alsoWatch: [
      {
        filters: ['api_key.revoked'],
        onEvent: (event) => {
          if ('keyId' in event.data && typeof event.data.keyId === 'string')
            keyCache.forget(event.data.keyId);
        },
        // Revocations may have been missed while disconnected: ask identity again.
        onGap: () => keyCache.forgetAll(),
      },
      {
        filters: ['store.member_removed', 'store.member_role_changed'],
        onEvent: (event) => {
          const data = event.data as { storeId?: unknown; userId?: unknown };
          if (typeof data.storeId === 'string' && typeof data.userId === 'string')
            memberships.forget(data.storeId, data.userId);
        },
        onGap: () => memberships.forgetAll(),
      },
      {
        filters: ['store.ownership_transferred'],
        onEvent: (event) => {
          const data = event.data as { storeId?: unknown; toUserId?: unknown };
          if (typeof data.storeId === 'string' && typeof data.toUserId === 'string')
            memberships.transferred(
              data.storeId,
              Math.floor(Date.parse(event.occurredAt) / 1000),
              data.toUserId,
            );
        },
        onGap: () => memberships.forgetAll(),
      },
      {
        // A domain verified, paused or removed, or a plan without custom domains, serves so
        // on the next request (http/custom-domains.ts).
        filters: ['store.domain_updated', 'plan.changed'],
        onEvent: (event) => {
          const data = event.data as { host?: unknown; userId?: unknown };
          if (typeof data.host === 'string') domains.forgetHost(data.host);
          if (typeof data.userId === 'string') domains.forgetSeller(data.userId);
        },
        onGap: () => domains.forgetAll(),
      },
      {
        // `/s/:handle`'s canonical address follows its store's domain (storefront/store-domains.ts).
        filters: [...STORE_DOMAIN_CHANGES],
        onEvent: () => storeDomains.onEvent(),
        onGap: () => storeDomains.forgetAll(),
      },
    ],
  });
  // The replica that forwarded a revoke forgets the key at once, before the event comes round.
  app.addHook('onResponse', (request, reply, done) => {
    const revoked = /^\/api\/auth\/api-keys\/([0-9a-f-]{36})$/.exec(request.url);
    if (request.method === 'DELETE' && revoked && reply.statusCode === 204)
      keyCache.forget(revoked[1]!);
    // Likewise a removal or role change: this replica refuses the member's next request at once.
    const member = /^\/api\/auth\/stores\/([0-9a-f-]{36})\/members\/([0-9a-f-]{36})$/.exec(
      request.url,
    );
    if (
      (request.method === 'DELETE' || request.method === 'PATCH') &&
      member &&
      reply.statusCode < 300
    )
      memberships.forget(member[1]!, member[2]!);
    // And a transfer: every cached answer about the store goes (the event stops the former
    // owner's older tokens on every replica, this one included).
    const transfer = /^\/api\/auth\/stores\/([0-9a-f-]{36})\/owner$/.exec(request.url);
    if (request.method === 'POST' && transfer && reply.statusCode < 300)
      memberships.forgetStore(transfer[1]!);
    done();
  });
  // A member acting for a store: still a member, with the token's role? (http/store-members.ts)
  // Identity's own routes check the session themselves, and a removed member must still reach
  // them to switch back to their own account.
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/dl/')) return;
    if (identityOwns(request.url)) return;
    await memberships.check(request);
  });
  app.addHook('onClose', () => storefront.close());

  // Only a file on its way to an upload route may be large; any other body (JSON to those
  // routes too) keeps the small limit, refused here rather than by a service that hangs up
  // mid-body (which the proxy could only report as a 502).
  const byteLimitFor = (url: string, contentType: string | undefined) =>
    contentType?.startsWith('multipart/form-data') &&
    [...apiV1Routes, ...routeTable].find((route) => url.startsWith(route.prefix))?.upload
      ? config.UPLOAD_BODY_LIMIT_BYTES
      : config.BODY_LIMIT_BYTES;
  installBodyLimits(app, byteLimitFor);
  // Where the delivery edge sends upload bodies to delivery itself, it asks here first
  // (http/edge-admission.ts); only the upload routes get its hooks. `/api/v1/files` stays on the
  // gateway: its key, idempotency and per-key budget live here.
  installEdgeAdmission(app, {
    admits: (url) => Boolean(routeTable.find((route) => url.startsWith(route.prefix))?.upload),
    byteLimitFor,
  });

  const headers = securityHeaders(config.WEB_DIST);
  // One hook taking `done` (no promise per request): security headers on every answer, and
  // sensitive routes paused while their attempts cannot be counted.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswer(request.url) ? headers.api : headers.documents);
    if (
      redis.status !== 'ready' &&
      routeTable.some((route) => route.sensitive && request.url.startsWith(route.prefix))
    )
      return done(
        new AppError(
          'rate_limit_unavailable',
          503,
          'This is paused for a moment while we cannot count attempts; please try again shortly',
        ),
      );
    done();
  });

  // Link previews for /product/:id (Open Graph / Twitter tags); see share-page.ts.
  const sharePages = createSharePages({
    webDist: config.WEB_DIST,
    rendererPath: config.WEB_RENDERER,
    reads: storefront.reads,
    stores: storeDomains,
    publicUrl: config.PUBLIC_URL,
    domainOrigin: (host) => domainOriginOf(host, config.PUBLIC_URL, httpsOnly),
    logger: app.log,
  });
  // After the security headers: a store's domain answers some requests in this hook.
  await registerStoreDomains(app, {
    directory: domains,
    pages: sharePages,
    publicUrl: config.PUBLIC_URL,
    httpsOnly,
  });

  const upstreams = upstreamUrls(config);
  const client = clientOf(config.TRUST_PROXY);
  const webhooks = createWebhookPassthrough({
    upstreamUrl: upstreams.payments,
    budget: createReadBudget({ max: config.WEBHOOK_RATE_LIMIT_PER_MINUTE }),
    clientOf: client,
    headers: { ...headers.api, 'x-served-by': GATEWAY },
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    metrics: app.metricsRegistry,
    logger: app.log,
  });
  app.addHook('onClose', () => webhooks.close());
  passWebhook = webhooks;
  const visitors = createVisitors(config.VISITOR_ID_SECRET);
  const readBudget = createReadBudget({ max: config.RATE_LIMIT_PER_MINUTE });
  // Two budgets, two stores. Sensitive routes (sign-in, checkout…) count in Redis, shared by
  // every gateway replica, and refuse while Redis is down. Everything else counts in this
  // process's memory: a coarse flood limit needs no network round trip per request (issue 11),
  // at the price of being per replica.
  for (const sensitive of [true, false]) {
    await app.register(async (scope) => {
      await scope.register(fastifyRateLimit, {
        global: false,
        ...(sensitive ? { redis, skipOnError: false } : {}),
        nameSpace: `${config.REDIS_KEY_PREFIX}rate:`,
        timeWindow: 60_000,
        errorResponseBuilder: (_request, context) =>
          rateLimitedError(Math.ceil(context.ttl / 1000)),
      });
      const rateLimit = (route: ProxyRoute) =>
        route.providerNotifications
          ? { max: config.WEBHOOK_RATE_LIMIT_PER_MINUTE, groupId: 'provider-notifications' }
          : {
              max: sensitive
                ? config.SENSITIVE_RATE_LIMIT_PER_MINUTE
                : config.RATE_LIMIT_PER_MINUTE,
              groupId: sensitive ? route.prefix : 'api',
            };
      // Before the catalog proxy: its own route wins for GET /api/products/:id.
      if (!sensitive)
        await registerStorefront(scope, {
          catalogUrl: config.CATALOG_URL,
          reads: storefront.reads,
          views: storefront.views,
          visitors,
          budget: readBudget,
          clientOf: client,
        });
      for (const route of routeTable.filter((entry) => Boolean(entry.sensitive) === sensitive)) {
        await scope.register(fastifyProxy, {
          upstream: upstreams[route.upstream],
          prefix: route.prefix,
          rewritePrefix: route.prefix,
          config: { rateLimit: rateLimit(route) },
          // The gateway logs each request once itself; reply-from would add two lines per hop.
          disableRequestLogging: true,
          replyOptions: {
            rewriteRequestHeaders: forwardedHeaders,
            onError: (reply, { error }) => sendForwardingError(reply, route.upstream, error),
          },
        });
      }
    });
  }
  // Outside the per-IP scopes: API keys have their own budget, counted per key.
  await registerApiV1(app, {
    identityUrl: config.IDENTITY_URL,
    upstreams,
    redis,
    redisPrefix: config.REDIS_KEY_PREFIX,
    cache: keyCache,
    idempotency: createIdempotency(redis, config.REDIS_KEY_PREFIX),
    perKeyPerMinute: config.API_KEY_RATE_LIMIT_PER_MINUTE,
  });
  // Rate limiting hooks onto routes as they are added, so the plugin must see the proxy routes.
  await registerApiDocs(app, upstreams);
  await registerSharePage(app, sharePages);
  await registerSpa(app, config.WEB_DIST);

  earlyAnswer = createEarlyAnswers({
    reads: storefront.reads,
    views: storefront.views,
    visitors,
    budget: readBudget,
    sharePages,
    clientOf: client,
    headers: {
      api: { ...headers.api, 'x-served-by': GATEWAY },
      documents: { ...headers.documents, 'x-served-by': GATEWAY },
    },
    metrics: app.metricsRegistry,
  });

  return app;
}

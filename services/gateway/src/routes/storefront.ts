import fastifyReplyFrom from '@fastify/reply-from';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ACCESS_COOKIE } from '@lockdrop/auth';
import {
  VISITOR_ID_HEADER,
  forwardedHeaders,
  sendUpstreamUnavailable,
} from '../http/forwarding.js';
import type { ProductReads } from '../storefront/product-reads.js';
import type { ViewBatches } from '../storefront/view-batches.js';
import { createVisitors } from '../storefront/visitors.js';

export interface StorefrontOptions {
  catalogUrl: string;
  reads: ProductReads;
  views: ViewBatches;
  visitorSecret: string;
  /** The rate-limit budget the rest of the API shares. */
  rateLimit: { max: number; groupId: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Catalog's own query rules: anything it would refuse is passed through for it to answer. */
const querySchema = z.object({
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
  referrer: z.string().max(500).optional(),
  countView: z.enum(['true', 'false']).optional(),
});

/** Signed-in readers (maybe the owner, maybe of a draft) are answered by catalog itself. */
function hasCredentials(request: FastifyRequest): boolean {
  return (
    request.headers.authorization !== undefined ||
    (request.headers.cookie?.includes(`${ACCESS_COOKIE}=`) ?? false)
  );
}

/**
 * `GET /api/products/:id` for the storefront's crowd: anonymous reads come from the gateway's
 * product reads (memory, invalidated by product events) and their views go to catalog in
 * batches; everything else is proxied to catalog with the visitor id the gateway assigned.
 */
export async function registerStorefront(
  app: FastifyInstance,
  options: StorefrontOptions,
): Promise<void> {
  const visitors = createVisitors(options.visitorSecret);
  await app.register(async (scope) => {
    await scope.register(fastifyReplyFrom, {
      base: options.catalogUrl,
      disableRequestLogging: true,
    });
    scope.get(
      '/api/products/:id',
      {
        config: { rateLimit: options.rateLimit },
        schema: { hide: true },
        // The crowd's reads are counted and timed in /metrics, not logged a line each (≈8 µs,
        // a fifth of a cached read); a failure is still logged (warn and error pass).
        logLevel: 'warn',
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        const query = querySchema.safeParse(request.query);
        const { currency, referrer, countView } = query.success ? query.data : {};
        const counted = countView !== 'false';
        const visitor = counted ? visitors.identify(request) : null;
        if (visitor?.setCookie) void reply.header('set-cookie', visitor.setCookie);

        const cacheable = query.success && UUID.test(id) && !hasCredentials(request);
        if (!cacheable) {
          return reply.from(request.url, {
            rewriteRequestHeaders: (incoming, headers) => ({
              ...forwardedHeaders(request, headers),
              ...(visitor ? { [VISITOR_ID_HEADER]: visitor.id } : {}),
            }),
            onError: (failed, { error }) => sendUpstreamUnavailable(failed, 'catalog', error),
          });
        }

        const read = await options.reads
          .get(id.toLowerCase(), currency?.toUpperCase() ?? null, String(request.id))
          .catch((error: unknown) => {
            sendUpstreamUnavailable(reply, 'catalog', error);
            return null;
          });
        if (!read) return reply;
        if (visitor && read.published)
          options.views.add({
            productId: read.published.id,
            visitorId: visitor.id,
            referrer: referrer || null,
            viewedAt: new Date().toISOString(),
            requestId: String(request.id),
          });
        void reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'private, no-cache')
          .header('etag', read.etag)
          .header('vary', 'cookie, authorization');
        if (read.statusCode === 200 && request.headers['if-none-match'] === read.etag)
          return reply.status(304).send();
        return reply.status(read.statusCode).send(read.body);
      },
    );
  });
}

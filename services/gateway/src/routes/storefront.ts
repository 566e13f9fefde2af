import fastifyReplyFrom from '@fastify/reply-from';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Client } from '../http/client.js';
import { VISITOR_ID_HEADER, forwardedHeaders, sendForwardingError } from '../http/forwarding.js';
import {
  PRODUCT_READ_ROUTE,
  UUID,
  answerProductRead,
  hasCredentials,
  readQuery,
  visitorOf,
} from '../storefront/product-answers.js';
import type { ProductReads } from '../storefront/product-reads.js';
import { rateLimitedError, type ReadBudget } from '../storefront/read-budget.js';
import type { ViewBatches } from '../storefront/view-batches.js';
import type { Visitors } from '../storefront/visitors.js';

export interface StorefrontOptions {
  catalogUrl: string;
  reads: ProductReads;
  views: ViewBatches;
  visitors: Visitors;
  budget: ReadBudget;
  clientOf: (request: IncomingMessage) => Client;
}

/**
 * `GET /api/products/:id` for the storefront's crowd, when storefront/early-answers.ts could
 * not answer it from memory before Fastify: anonymous reads load the product into the kept
 * reads (invalidated by product events) and their views go to catalog in batches; everything
 * else is proxied to catalog with the visitor id the gateway assigned.
 */
export async function registerStorefront(
  app: FastifyInstance,
  options: StorefrontOptions,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyReplyFrom, {
      base: options.catalogUrl,
      disableRequestLogging: true,
    });
    scope.get(
      PRODUCT_READ_ROUTE,
      {
        schema: { hide: true },
        // The crowd's reads are counted and timed in /metrics, not logged a line each (≈8 µs,
        // a fifth of a cached read); a failure is still logged (warn and error pass).
        logLevel: 'warn',
      },
      async (request, reply) => {
        const client = options.clientOf(request.raw);
        const budget = options.budget.take(client.ip);
        void reply.headers(budget.headers);
        if (!budget.allowed) throw rateLimitedError(budget.retryAfterSeconds);

        const { id } = request.params as { id: string };
        const search = request.url.indexOf('?');
        const query = readQuery(search === -1 ? '' : request.url.slice(search + 1));
        const visitor = visitorOf(options.visitors, request.headers, client, query);

        if (!query || !UUID.test(id) || hasCredentials(request.headers)) {
          if (visitor?.setCookie) void reply.header('set-cookie', visitor.setCookie);
          return reply.from(request.url, {
            rewriteRequestHeaders: (incoming, headers) => ({
              ...forwardedHeaders(request, headers),
              ...(visitor ? { [VISITOR_ID_HEADER]: visitor.id } : {}),
            }),
            onError: (failed, { error }) => sendForwardingError(failed, 'catalog', error),
          });
        }

        const read = await options.reads
          .get(id.toLowerCase(), query.currency, String(request.id))
          .catch((error: unknown) => {
            if (visitor?.setCookie) void reply.header('set-cookie', visitor.setCookie);
            sendForwardingError(reply, 'catalog', error);
            return null;
          });
        if (!read) return reply;
        const answer = answerProductRead(
          read,
          { headers: request.headers, query, visitor, requestId: String(request.id) },
          options.views,
        );
        void reply.status(answer.statusCode).headers(answer.headers);
        return answer.statusCode === 304 ? reply.send() : reply.send(answer.body);
      },
    );
  });
}

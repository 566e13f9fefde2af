import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  REQUEST_DURATION_METRIC,
  REQUEST_ID_HEADER,
  requestIdFrom,
  type EarlyAnswer,
} from '@lockdrop/http';
import { Counter, type Histogram, type Registry } from 'prom-client';
import type { Client } from '../http/client.js';
import { READABLE_PAGE_ROUTE, SHARE_PAGE_ROUTE, pageAnswerParts } from '../routes/share-page.js';
import {
  PRODUCT_READ_PREFIX,
  PRODUCT_READ_ROUTE,
  UUID,
  answerProductRead,
  hasCredentials,
  readQuery,
  visitorOf,
} from './product-answers.js';
import type { ProductReads } from './product-reads.js';
import type { ReadBudget } from './read-budget.js';
import type { SharePages } from './share-pages.js';
import type { ViewBatches } from './view-batches.js';
import type { Visitors } from './visitors.js';

const SHARE_PAGE_PREFIX = '/product/';
const READABLE_PAGE_PREFIX = '/p/';

/**
 * The storefront's crowd reads answered from memory before Fastify builds a request (issue 11):
 * an anonymous `GET /api/products/:id` or `GET /product/:id` whose product read is kept.
 * Fastify's request, reply and hook chain cost the gateway twice what the answer itself does,
 * and a shared link's crowd is almost all such hits. Everything else — a miss, a signed-in
 * reader, an odd query, a client over its budget, HEAD — returns false and Fastify answers it
 * (routes/storefront.ts, routes/share-page.ts) from the same product reads, budget, visitor
 * cookie and answer (storefront/product-answers.ts), with the same headers: the security
 * headers, `x-request-id`, `x-served-by`. Both are timed in the same /metrics histogram, and
 * `gateway_early_answers_total` says how much of the crowd was answered here.
 */
export function createEarlyAnswers({
  reads,
  views,
  visitors,
  budget,
  sharePages,
  clientOf,
  headers,
  metrics,
}: {
  reads: ProductReads;
  views: ViewBatches;
  visitors: Visitors;
  budget: ReadBudget;
  sharePages: SharePages;
  clientOf: (request: IncomingMessage) => Client;
  /**
   * What every answer carries (security headers, `x-served-by`): a product read gets the API's
   * set, a share page a page's.
   */
  headers: { api: Record<string, string>; documents: Record<string, string> };
  /** The app's registry, holding libs/http's request histogram. */
  metrics: Registry;
}): EarlyAnswer {
  const duration = metrics.getSingleMetric(REQUEST_DURATION_METRIC) as Histogram<
    'method' | 'route' | 'status'
  >;
  const answered = new Counter({
    name: 'gateway_early_answers_total',
    help: 'Storefront reads answered from memory before Fastify, by route',
    labelNames: ['route'],
    registers: [metrics],
  });
  const apiHeaders = Object.entries(headers.api).flat();
  const documentHeaders = Object.entries(headers.documents).flat();

  function send(
    response: ServerResponse,
    common: readonly string[],
    requestId: string,
    statusCode: number,
    answerHeaders: Readonly<Record<string, string>>,
    body: string | Buffer,
  ): void {
    const list = [...common, REQUEST_ID_HEADER, requestId];
    for (const name in answerHeaders) list.push(name, answerHeaders[name]!);
    if (statusCode !== 304) list.push('content-length', String(Buffer.byteLength(body)));
    response.writeHead(statusCode, list);
    // A string body leaves with the headers in one write (see ProductRead).
    response.end(statusCode === 304 ? undefined : body);
  }

  function productRead(request: IncomingMessage, response: ServerResponse, url: string): boolean {
    const search = url.indexOf('?');
    const id = url.slice(PRODUCT_READ_PREFIX.length, search === -1 ? undefined : search);
    if (!UUID.test(id) || hasCredentials(request.headers)) return false;
    const query = readQuery(search === -1 ? '' : url.slice(search + 1));
    if (!query) return false;
    const read = reads.peek(id.toLowerCase(), query.currency);
    if (!read) return false;
    const client = clientOf(request);
    const allowed = budget.take(client.ip);
    // Refused in the route, in the error shape; counted twice meanwhile, which changes nothing.
    if (!allowed.allowed) return false;
    const requestId = requestIdFrom(request);
    const answer = answerProductRead(
      read,
      {
        headers: request.headers,
        query,
        visitor: visitorOf(visitors, request.headers, client, query),
        requestId,
      },
      views,
    );
    send(
      response,
      apiHeaders,
      requestId,
      answer.statusCode,
      { ...allowed.headers, ...answer.headers },
      answer.body,
    );
    return true;
  }

  function sharePage(
    response: ServerResponse,
    request: IncomingMessage,
    url: string,
    prefix: string,
  ): boolean {
    const search = url.indexOf('?');
    const key = url.slice(prefix.length, search === -1 ? undefined : search);
    // Fastify decodes the parameter; a key that needs decoding is left to it.
    if (key.includes('%') || key.includes('/')) return false;
    const kept = sharePages.keptPage(key);
    if (kept === undefined) return false;
    const answer = pageAnswerParts(
      kept,
      search === -1 ? '' : url.slice(search),
      request.headers['accept-encoding'],
    );
    send(
      response,
      documentHeaders,
      requestIdFrom(request),
      answer.statusCode,
      answer.headers,
      answer.body,
    );
    return true;
  }

  return (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined) return false;
    const startedAt = performance.now();
    let route: string;
    if (url.startsWith(PRODUCT_READ_PREFIX)) {
      if (!productRead(request, response, url)) return false;
      route = PRODUCT_READ_ROUTE;
    } else if (url.startsWith(SHARE_PAGE_PREFIX)) {
      if (!sharePage(response, request, url, SHARE_PAGE_PREFIX)) return false;
      route = SHARE_PAGE_ROUTE;
    } else if (url.startsWith(READABLE_PAGE_PREFIX)) {
      if (!sharePage(response, request, url, READABLE_PAGE_PREFIX)) return false;
      route = READABLE_PAGE_ROUTE;
    } else return false;
    answered.inc({ route });
    duration.observe(
      { method: 'GET', route, status: String(response.statusCode) },
      (performance.now() - startedAt) / 1000,
    );
    return true;
  };
}

import type { IncomingHttpHeaders } from 'node:http';
import { ACCESS_COOKIE } from '@lockdrop/auth';
import type { Client } from '../http/client.js';
import type { ProductRead } from './product-reads.js';
import type { ViewBatches } from './view-batches.js';
import type { Visitor, Visitors } from './visitors.js';

/** The storefront's product read, as Fastify names its route (metrics label it so). */
export const PRODUCT_READ_ROUTE = '/api/products/:id';
export const PRODUCT_READ_PREFIX = '/api/products/';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StorefrontQuery {
  currency: string | null;
  referrer: string | null;
  /** `countView=false`: not a person viewing (the SPA re-reading after checkout, link previews). */
  counted: boolean;
}

const CURRENCY = /^[A-Za-z]{3}$/;
const MAX_REFERRER = 500;
const COUNT_VIEW = new Set(['true', 'false']);

/**
 * The query of an anonymous product read, or null when catalog would refuse it (a bad
 * currency, a repeated parameter) or it holds a NUL: such reads go to catalog, which answers
 * them in words. Parsed the same way whichever path answers the read.
 */
export function readQuery(search: string): StorefrontQuery | null {
  if (search === '') return { currency: null, referrer: null, counted: true };
  if (search.includes('%00')) return null;
  const params = new URLSearchParams(search);
  const one = (name: string) => {
    const values = params.getAll(name);
    return values.length > 1 ? undefined : (values[0] ?? null);
  };
  const currency = one('currency');
  const referrer = one('referrer');
  const countView = one('countView');
  if (currency === undefined || referrer === undefined || countView === undefined) return null;
  if (currency !== null && !CURRENCY.test(currency)) return null;
  if (referrer !== null && referrer.length > MAX_REFERRER) return null;
  if (countView !== null && !COUNT_VIEW.has(countView)) return null;
  return { currency: currency?.toUpperCase() ?? null, referrer, counted: countView !== 'false' };
}

/** Signed-in readers (maybe the owner, maybe of a draft) are answered by catalog itself. */
export function hasCredentials(headers: IncomingHttpHeaders): boolean {
  return (
    headers.authorization !== undefined || (headers.cookie?.includes(`${ACCESS_COOKIE}=`) ?? false)
  );
}

export interface ProductAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface ReadContext {
  headers: IncomingHttpHeaders;
  query: StorefrontQuery;
  visitor: Visitor | null;
  requestId: string;
}

/**
 * What an anonymous product read answers from a kept read, and the view it counts: the one
 * place both paths (storefront/early-answers.ts before Fastify, routes/storefront.ts after a
 * miss) take it from, so they cannot answer differently.
 */
export function answerProductRead(
  read: ProductRead,
  { headers, query, visitor, requestId }: ReadContext,
  views: ViewBatches,
): ProductAnswer {
  if (visitor && read.published)
    views.add({
      productId: read.published.id,
      visitorId: visitor.id,
      referrer: query.referrer || null,
      viewedAt: new Date().toISOString(),
      requestId,
    });
  const answerHeaders: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'private, no-cache',
    etag: read.etag,
    vary: 'cookie, authorization',
  };
  if (visitor?.setCookie) answerHeaders['set-cookie'] = visitor.setCookie;
  if (read.statusCode === 200 && headers['if-none-match'] === read.etag)
    return { statusCode: 304, headers: answerHeaders, body: '' };
  return { statusCode: read.statusCode, headers: answerHeaders, body: read.body };
}

/** The visitor a read counts, or null when it counts none. */
export function visitorOf(
  visitors: Visitors,
  headers: IncomingHttpHeaders,
  client: Client,
  query: StorefrontQuery | null,
): Visitor | null {
  return query?.counted === false ? null : visitors.identify(headers, client);
}

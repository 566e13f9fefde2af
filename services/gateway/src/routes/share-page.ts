import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { PageAnswer, SharePage, SharePages } from '../storefront/share-pages.js';

export const SHARE_PAGE_ROUTE = '/product/:id';
/** The readable address every share link uses: `/p/<slug>-<shortId>` (libs/contracts). */
export const READABLE_PAGE_ROUTE = '/p/:slugId';
const SHARE_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  vary: 'accept-encoding',
} as const;
const ENCODED_HEADERS = {
  br: { ...SHARE_PAGE_HEADERS, 'content-encoding': 'br' },
  gzip: { ...SHARE_PAGE_HEADERS, 'content-encoding': 'gzip' },
} as const;

/** Whether `accept-encoding` takes `coding` (listed, and not with q=0). */
function accepts(acceptEncoding: string, coding: string): boolean {
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';');
    if (name.trim().toLowerCase() !== coding) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/**
 * The headers and body of a share page, compressed as the client accepts (brotli, else gzip):
 * a rendered product page carries the app's stylesheet inline. Both the route and the answer
 * before Fastify (storefront/early-answers.ts) send it this way.
 */
export function sharePageAnswer(
  page: SharePage,
  acceptEncoding: string | undefined,
): { headers: Readonly<Record<string, string>>; body: string | Buffer } {
  if (acceptEncoding && accepts(acceptEncoding, 'br'))
    return { headers: ENCODED_HEADERS.br, body: page.br };
  if (acceptEncoding && accepts(acceptEncoding, 'gzip'))
    return { headers: ENCODED_HEADERS.gzip, body: page.gzip };
  return { headers: SHARE_PAGE_HEADERS, body: page.html };
}

/** Sends a product address's answer (`PageAnswer`), from the route or before Fastify. */
export function pageAnswerParts(
  answer: PageAnswer,
  search: string,
  acceptEncoding: string | undefined,
): { statusCode: number; headers: Readonly<Record<string, string>>; body: string | Buffer } {
  if (answer.status === 301)
    // The query (a discount `?code=`, a campaign tag) goes along to the current address.
    return {
      statusCode: 301,
      headers: { location: `${answer.location}${search}`, 'cache-control': 'no-cache' },
      body: '',
    };
  return { statusCode: answer.status, ...sharePageAnswer(answer.page, acceptEncoding) };
}

/** A store's page on Lockdrop's host; on its own domain the store lives at `/`. */
export const STORE_PAGE_ROUTE = '/s/:handle';

/**
 * `/product/:id` and `/p/:slugId` with the product's link-preview tags, and `/s/:handle` naming
 * the store's verified domain as canonical (storefront/share-pages.ts).
 */
export async function registerSharePage(app: HttpServer, pages: SharePages): Promise<void> {
  app.get(
    STORE_PAGE_ROUTE,
    {
      logLevel: 'warn',
      schema: { hide: true, params: z.object({ handle: z.string().max(200) }) },
    },
    async (request, reply) => {
      const page = await pages.storePage(request.params.handle, request.id);
      const { headers, body } = sharePageAnswer(page, request.headers['accept-encoding']);
      return reply.status(200).headers(headers).send(body);
    },
  );
  for (const [route, param] of [
    [SHARE_PAGE_ROUTE, 'id'],
    [READABLE_PAGE_ROUTE, 'slugId'],
  ] as const) {
    app.get(
      route,
      // Like the storefront's product reads: in /metrics, not one log line each.
      {
        logLevel: 'warn',
        schema: { hide: true, params: z.object({ [param]: z.string().max(200) }) },
      },
      async (request, reply) => {
        const key = (request.params as Record<string, string>)[param]!;
        const answer = await pages
          .page(key, request.id, request.storeHost)
          .catch(async (error: unknown) => {
            // Catalog down or slow: the page still works, only the rich preview is missing.
            request.log.warn({ err: error }, 'share-page tags unavailable');
            const page = request.storeHost
              ? await pages.storeShell(request.storeHost, null)
              : await pages.shell();
            return { status: 200 as const, page };
          });
        const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const parts = pageAnswerParts(answer, search, request.headers['accept-encoding']);
        return reply.status(parts.statusCode).headers(parts.headers).send(parts.body);
      },
    );
  }
}

import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { SharePages } from '../storefront/share-pages.js';

export const SHARE_PAGE_ROUTE = '/product/:id';
export const SHARE_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
} as const;

/** `/product/:id` with the product's link-preview tags (storefront/share-pages.ts). */
export async function registerSharePage(app: HttpServer, pages: SharePages): Promise<void> {
  app.get(
    SHARE_PAGE_ROUTE,
    // Like the storefront's product reads: in /metrics, not one log line each.
    { logLevel: 'warn', schema: { hide: true, params: z.object({ id: z.string() }) } },
    async (request, reply) => {
      const page = await pages.page(request.params.id, request.id).catch(async (error: unknown) => {
        // Catalog down or slow: the page still works, only the rich preview is missing.
        request.log.warn({ err: error }, 'share-page tags unavailable');
        return pages.shell();
      });
      return reply.headers(SHARE_PAGE_HEADERS).send(page);
    },
  );
}

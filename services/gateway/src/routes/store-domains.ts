import type { HttpServer } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hostnameOf, type DomainDirectory, type StoreHost } from '../http/custom-domains.js';
import { escapeHtml, type SharePages } from '../storefront/share-pages.js';
import { sharePageAnswer } from './share-page.js';

/** Caddy's question before it asks for a certificate (deploy: `on_demand_tls { ask … }`). */
export const DOMAIN_ASK_ROUTE = '/internal/domains/ask';

/** The operator's paths answer the same on every host (probes, metrics, Caddy's question). */
const HOST_INDEPENDENT = new Set(['/healthz', '/readyz', '/metrics', DOMAIN_ASK_ROUTE]);

/**
 * What a store's domain serves of the API: what its public pages call (product and store reads,
 * checkout, the buyer's purchase by reference, downloads, previews, logos, currencies). Anything
 * else — sign-in above all — is not there: dashboard sessions never live on a seller's domain.
 */
const STORE_API_PREFIXES = [
  '/api/products/',
  '/api/stores/',
  '/api/checkout',
  '/api/purchases/by-reference',
  '/api/purchases/payment-mode',
  '/api/downloads',
  '/api/previews/',
  '/api/brand-logos/',
  '/api/currencies',
  '/api/exchange-rates',
];
/** Product pages: the share-page route renders them for the store (routes/share-page.ts). */
const STORE_PRODUCT_PAGES = ['/p/', '/product/'];
/** The app's pages a buyer reaches on the store's domain; the domain's `/` is the store page. */
const STORE_APP_PAGES = [/^\/$/, /^\/payment\/(success|cancel)\/?$/, /^\/receipt\/[^/]+\/?$/];
/** The session check the app makes on every page: on a store's domain nobody is signed in. */
const SESSION_ROUTE = '/api/auth/session';

/**
 * The buyer's origin on the domain, built from the verified host and a numeric port only: the
 * provider's redirect goes here, so nothing else a client wrote in `Host` may get into it.
 */
function originOf(protocol: string, hostHeader: string | undefined, host: string): string {
  const port = /:(\d{1,5})$/.exec(hostHeader ?? '')?.[1];
  const scheme = protocol === 'https' ? 'https' : 'http';
  const defaultPort = scheme === 'https' ? '443' : '80';
  return `${scheme}://${host}${port && port !== defaultPort ? `:${port}` : ''}`;
}

const isApiPath = (path: string) => path.startsWith('/api/') || path === '/api';
const isFilePath = (path: string) => /\.[a-z0-9]+$/i.test(path) && !isApiPath(path);

function unknownHostPage(hostname: string, publicUrl: string): string {
  const host = escapeHtml(hostname);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><meta name="robots" content="noindex" /><title>No store at ${host}</title></head>
<body>
<main>
<h1>No store at ${host}</h1>
<p>${host} is not connected to a store on Lockdrop, or its connection is not verified yet.</p>
<p>If this is your domain, finish connecting it in your Lockdrop settings under Domain.</p>
<p><a href="${escapeHtml(publicUrl)}">Go to Lockdrop</a></p>
</main>
</body>
</html>
`;
}

/**
 * Requests by `Host` (issue 28). Our own hosts go on as before. A verified custom domain shows
 * its store: `/` is the store page, its product pages, checkout, payment results, receipts and
 * downloads work there, with the session stripped (http/forwarding.ts) and no identity route at
 * all; the dashboard and every other page redirect to our own host. Any other host — unknown,
 * pending, paused — gets a plain 404 page, never the main site.
 */
export async function registerStoreDomains(
  app: HttpServer,
  {
    directory,
    pages,
    publicUrl,
    httpsOnly,
  }: {
    directory: DomainDirectory;
    pages: SharePages;
    publicUrl: string;
    /**
     * In production a store's domain is reached through the edge alone, which always speaks
     * TLS: its origin is https whatever the hop from the edge says.
     */
    httpsOnly: boolean;
  },
): Promise<void> {
  const site = publicUrl.replace(/\/+$/, '');
  app.decorateRequest('storeHost', null);

  app.get(
    DOMAIN_ASK_ROUTE,
    {
      logLevel: 'warn',
      schema: {
        hide: true,
        querystring: z.object({ domain: z.string().min(1).max(253) }),
      },
    },
    async (request, reply) => {
      const hostname = hostnameOf(request.query.domain);
      const store =
        hostname && !directory.isOwnHost(hostname) ? await directory.storeOf(hostname) : null;
      if (store) return reply.status(200).send({ domain: store.host });
      return reply.status(404).send({
        error: { code: 'domain_not_found', message: 'No verified store domain has this name' },
      });
    },
  );

  const sendPage = (request: FastifyRequest, reply: FastifyReply, status: number, page: string) =>
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(request.method === 'HEAD' ? '' : page);

  async function serveStore(request: FastifyRequest, reply: FastifyReply, store: StoreHost) {
    const path = request.url.split('?')[0] ?? '/';
    const readsPage = request.method === 'GET' || request.method === 'HEAD';
    if (isApiPath(path)) {
      if (path === SESSION_ROUTE && request.method === 'GET')
        return reply.header('cache-control', 'no-store').send({ user: null });
      if (STORE_API_PREFIXES.some((prefix) => path.startsWith(prefix))) return;
      return reply.status(404).send({
        error: {
          code: 'not_on_store_domain',
          message: `This is not available on ${store.host}; use ${site}`,
        },
      });
    }
    if (path.startsWith('/dl/') || isFilePath(path)) return;
    if (STORE_PRODUCT_PAGES.some((prefix) => path.startsWith(prefix))) return;
    if (readsPage && path.replace(/\/+$/, '').toLowerCase() === `/s/${store.handle}`)
      return reply.redirect('/', 301);
    if (readsPage && STORE_APP_PAGES.some((page) => page.test(path))) {
      const page = await pages.storeShell(store, path === '/' ? '/' : null);
      const { headers, body } = sharePageAnswer(page, request.headers['accept-encoding']);
      return reply
        .status(200)
        .headers(headers)
        .send(request.method === 'HEAD' ? '' : body);
    }
    // Sign-in, the dashboard, settings, marketing pages: ours, on our own host.
    if (readsPage) return reply.redirect(`${site}${request.url}`, 302);
    return reply.status(404).send({
      error: { code: 'not_on_store_domain', message: `This is not available on ${store.host}` },
    });
  }

  app.addHook('onRequest', async (request, reply) => {
    const hostname = hostnameOf(request.headers.host);
    if (directory.isOwnHost(hostname)) return;
    const path = request.url.split('?')[0] ?? '/';
    if (HOST_INDEPENDENT.has(path)) return;
    let route;
    try {
      route = await directory.storeOf(hostname!);
    } catch (error) {
      request.log.warn({ err: error, host: hostname }, 'custom domain lookup failed');
      return reply.status(503).send({
        error: {
          code: 'service_unavailable',
          message: 'This store cannot be reached right now; please try again shortly',
        },
      });
    }
    if (!route) {
      if (
        isApiPath(path) ||
        isFilePath(path) ||
        (request.method !== 'GET' && request.method !== 'HEAD')
      )
        return reply.status(404).send({
          error: { code: 'domain_not_found', message: `No store is connected at ${hostname}` },
        });
      return sendPage(request, reply, 404, unknownHostPage(hostname!, site));
    }
    request.storeHost = {
      host: route.host,
      origin: originOf(httpsOnly ? 'https' : request.protocol, request.headers.host, route.host),
      sellerId: route.sellerId,
      handle: route.handle,
    };
    return serveStore(request, reply, request.storeHost);
  });
}

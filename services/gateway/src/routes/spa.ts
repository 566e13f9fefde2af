import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Serves the built SPA: content-hashed `/assets/*` cached forever, HTML always revalidated,
 * both compressed at build time (brotli or gzip, as the browser accepts),
 * prerendered public pages (`prerendered/<path>.html`) where the build made one, and
 * `index.html` for every other client-side route.
 */
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<void> {
  const root = path.resolve(webDist);
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    index: false,
    cacheControl: false,
    // The web build writes .br and .gz beside each text file (web/scripts/precompress.mjs).
    preCompressed: true,
    setHeaders(response, filePath) {
      response.header(
        'cache-control',
        filePath.startsWith(path.join(root, 'assets') + path.sep) ? IMMUTABLE : REVALIDATE,
      );
    },
  });
  // @fastify/static refuses the bare root when `index` is off; the landing page lives there.
  app.get('/', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', REVALIDATE).sendFile(htmlFileFor(root, '/')),
  );
  // Browsers ask for /favicon.ico on their own (before reading the page's icon link, or on a
  // page without one): the site's icon, not a 404 in every visitor's console (issue 29).
  if (existsSync(path.join(root, 'favicon.svg')))
    app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').sendFile('favicon.svg'),
    );
}

/**
 * Whether the app has a page for `pathname`, from the web build's dist/routes.json (its
 * react-router path patterns; `:name` matches one segment, case-insensitively as the router
 * does). A build without the file knows no patterns: every path is taken as a page, as before.
 */
export function clientRoutes(root: string): (pathname: string) => boolean {
  let patterns: unknown;
  try {
    patterns = JSON.parse(readFileSync(path.join(path.resolve(root), 'routes.json'), 'utf8'));
  } catch {
    return () => true;
  }
  if (!Array.isArray(patterns)) return () => true;
  const matchers = patterns
    .filter((pattern): pattern is string => typeof pattern === 'string')
    .map((pattern) => {
      const source = pattern
        .replace(/\/+$/, '')
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/');
      return new RegExp(`^${source}/?$`, 'i');
    });
  return (pathname) => matchers.some((matcher) => matcher.test(pathname));
}

/** The HTML file for a client-side route, relative to the dist root. */
export function htmlFileFor(root: string, pathname: string): string {
  const name = pathname.replace(/^\/+|\/+$/g, '') || 'index';
  if (/^[a-z0-9/-]+$/.test(name)) {
    const prerendered = path.join('prerendered', `${name}.html`);
    if (existsSync(path.join(root, prerendered))) return prerendered;
  }
  return 'index.html';
}

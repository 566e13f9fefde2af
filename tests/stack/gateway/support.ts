import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCatalogHarness, type CatalogHarness } from '../catalog/support.js';
import { loadConfig } from '@lockdrop/config';
import type { HttpServer } from '@lockdrop/http';
import { testEnv, waitUntil } from '@lockdrop/testing';
import { buildApp } from '@lockdrop/gateway/src/app.js';
import { configSchema } from '@lockdrop/gateway/src/config.js';

export const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Lockdrop — Sell files behind a secure payment link</title>
    <meta name="description" content="Upload a file, set a price and share a secure payment link." />
  </head>
  <body><div id="root"></div><!-- spa shell --></body>
</html>
`;

/** web's product frame (prerendered/_product.html): the shell with the outlet in its root. */
export const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>';

export const FRAME = SHELL.replace(
  '<div id="root"></div>',
  '<div id="root"><!--lockdrop:product--></div>',
);

/**
 * Stands in for web's server entry (web/.ssr/prerender.js, which needs a web build): the same
 * exports, rendering a product's title, failing for a product titled "Renderer breaks", and
 * counting its renders in `globalThis.productPagesRendered` (it runs in the test's process).
 * The real entry is exercised in the browser by e2e/product-page.e2e.ts.
 */
export const RENDERER = `
export const PRODUCT_OUTLET = '<!--lockdrop:product-->';
export const RENDERED_QUERIES_ID = 'ld-rendered-queries';
const escape = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
export async function renderProductPage(product) {
  globalThis.productPagesRendered = (globalThis.productPagesRendered ?? 0) + 1;
  if (product.title === 'Renderer breaks') throw new Error('cannot render this product');
  return {
    html: '<main><h1>' + escape(product.title) + '</h1></main>',
    queries: [{ queryKey: ['products', product.id, { currency: null }], data: product }],
  };
}
`;

export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field, like inject's
  json(): any;
  cookies: { name: string; value: string; [attribute: string]: string | boolean }[];
}

/**
 * GET over a real socket. The storefront answers kept reads before Fastify
 * (storefront/early-answers.ts), which `inject` never reaches, so what a browser gets is
 * tested this way.
 */
export function httpGetter(
  app: HttpServer,
): (
  url: string,
  headers?: Record<string, string>,
  redirect?: 'follow' | 'manual',
) => Promise<HttpAnswer> {
  let origin: Promise<string> | undefined;
  return async (url, headers = {}, redirect = 'follow') => {
    origin ??= app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${await origin}${url}`, { headers, redirect });
    const body = await response.text();
    return {
      statusCode: response.status,
      headers: Object.fromEntries(response.headers),
      body,
      json: () => JSON.parse(body),
      cookies: response.headers.getSetCookie().map(parseSetCookie),
    };
  };
}

function parseSetCookie(header: string): HttpAnswer['cookies'][number] {
  const [pair = '', ...attributes] = header.split(/;\s*/);
  const separator = pair.indexOf('=');
  const cookie: HttpAnswer['cookies'][number] = {
    name: pair.slice(0, separator),
    value: pair.slice(separator + 1),
  };
  for (const attribute of attributes) {
    const [name = '', value] = attribute.split('=');
    const key = name.charAt(0).toLowerCase() + name.slice(1).replace('-', '');
    cookie[key] = value ?? true;
  }
  return cookie;
}

export interface StorefrontHarness {
  /** The real catalog (own database and bus namespace), reachable at `catalogUrl`. */
  catalog: CatalogHarness;
  catalogUrl: string;
  gateway: HttpServer;
  /** Another gateway on the same bus and web build (e.g. in front of an unreachable catalog). */
  buildGateway(env?: Record<string, string>): Promise<HttpServer>;
  /**
   * Resolves once the product's `product.published` event has gone by on the bus: the gateway
   * drops a read that overlapped it, so a test counting catalog reads or kept answers waits.
   */
  published(productId: string): Promise<void>;
  close(): Promise<void>;
}

/** A real gateway in front of a real catalog, sharing its bus namespace (product events, views). */
export async function createStorefrontHarness(): Promise<StorefrontHarness> {
  const catalog = await createCatalogHarness();
  const catalogUrl = await catalog.app.listen({ port: 0, host: '127.0.0.1' });
  const webDist = await mkdtemp(path.join(tmpdir(), 'lockdrop-storefront-'));
  await writeFile(path.join(webDist, 'index.html'), SHELL);
  await mkdir(path.join(webDist, 'prerendered'));
  await writeFile(path.join(webDist, 'prerendered', '_product.html'), FRAME);
  await writeFile(path.join(webDist, 'renderer.mjs'), RENDERER);
  // What web/scripts/prerender.mjs writes: the app's path patterns (a few of them here).
  await writeFile(
    path.join(webDist, 'routes.json'),
    JSON.stringify([
      '/',
      '/pricing',
      '/dashboard/payments',
      '/product/:id',
      '/p/:slugId',
      '/s/:handle',
    ]),
  );
  await writeFile(path.join(webDist, 'favicon.svg'), FAVICON);
  const gateways: HttpServer[] = [];
  const buildGateway = async (env: Record<string, string> = {}) => {
    const gateway = await buildApp(
      loadConfig(configSchema, {
        CATALOG_URL: catalogUrl,
        REDIS_URL: testEnv.redisUrl,
        REDIS_KEY_PREFIX: `${catalog.namespace}:gateway${gateways.length}:`,
        NATS_URL: testEnv.natsUrl,
        BUS_NAMESPACE: catalog.namespace,
        WEB_DIST: webDist,
        WEB_RENDERER: path.join(webDist, 'renderer.mjs'),
        PUBLIC_URL: 'https://lockdrop.example/',
        LOG_LEVEL: 'silent',
        ...env,
      }),
    );
    gateways.push(gateway);
    return gateway;
  };
  const gateway = await buildGateway();
  const announced = new Set<string>();
  const bus = await catalog.connectBus();
  bus.watch({
    filters: ['product.published'],
    onEvent: (event) => {
      if ('productId' in event.data && typeof event.data.productId === 'string')
        announced.add(event.data.productId);
    },
    onGap: () => undefined,
  });
  return {
    catalog,
    catalogUrl,
    gateway,
    buildGateway,
    async published(productId) {
      await waitUntil(
        async () => announced.has(productId),
        (seen) => seen,
      );
      // The gateway's subscription gets the same message as this one; give it a moment more.
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async close() {
      await Promise.all(gateways.map((app) => app.close()));
      await catalog.close();
      await rm(webDist, { recursive: true, force: true });
    },
  };
}

/**
 * Server entry: used at build time (scripts/prerender.mjs) to render the public pages, and by
 * the gateway to render a product's page from its kept product read (storefront/share-pages.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
// The edge build, not react-dom's Node one: the Node build runs each render in an
// AsyncLocalStorage, which on Node 20 turns async hooks on for the rest of the process, so one
// rendered product page made every later async operation in the gateway call the hooks (4% of
// its samples in a storefront-read profile). The edge build uses one only where the runtime has
// it as a global, which Node does not.
import { prerender } from 'react-dom/static.edge';
import { StaticRouter, type RouteObject } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { AppRoutes, preloadRoute, routes } from './app/router';
import { productQueryOptions } from './features/products/api/get-product';
import type { ProductDetail } from './features/products/types';
import { createQueryClient, seedRenderedQueries, type RenderedQuery } from './lib/query-client';
import { paths } from './config/paths';
import { shortIdOf } from '@lockdrop/contracts';

export { prerenderedPages } from './config/seo';
export { site } from './config/site';
export { RENDERED_QUERIES_ID } from './lib/query-client';

/** Where a product's rendered HTML goes in the product page's frame (prerendered/_product.html). */
export const PRODUCT_OUTLET = '<!--lockdrop:product-->';

async function render(url: string, queryClient?: QueryClient): Promise<string> {
  // With the page's code loaded nothing suspends, so the HTML needs no inline script to reveal it
  // (the gateway's CSP allows no inline script).
  await preloadRoute(url);
  const { prelude } = await prerender(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
  return new Response(prelude).text();
}

/**
 * Every path pattern the app has a page for (`/product/:id` …), for dist/routes.json: the
 * gateway answers 404 for a path none of them matches (the SPA still shows its not-found page).
 */
export function routePatterns(): string[] {
  const patterns: string[] = [];
  const walk = (list: RouteObject[]) => {
    for (const route of list) {
      if (route.path && route.path !== '*') patterns.push(route.path);
      if (route.children) walk(route.children);
    }
  };
  walk(routes);
  return patterns;
}

export function renderPage(url: string): Promise<string> {
  return render(url);
}

/**
 * A product's page as an anonymous visitor first sees it, from catalog's public read of it (the
 * JSON `GET /api/products/:id` answers): the HTML for `#root`, and the queries the browser seeds
 * its cache with before it hydrates, so both render the same thing.
 */
export async function renderProductPage(
  product: ProductDetail,
): Promise<{ html: string; queries: RenderedQuery[] }> {
  // Under both keys the page is read by: its id (`/product/:id`) and its short id (`/p/…`).
  const queries = [product.id, shortIdOf(product.id)].map((key) => ({
    queryKey: productQueryOptions(key).queryKey,
    data: product,
  }));
  const queryClient = createQueryClient();
  seedRenderedQueries(queryClient, queries);
  return { html: await render(paths.products.detail.getHref(product.id), queryClient), queries };
}

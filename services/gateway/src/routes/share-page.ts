import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { previewImagePath } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { ProductRead, ProductReads, PublicProduct } from '../storefront/product-reads.js';

/**
 * `/product/:id` for link previews: chat apps and social sites read Open Graph / Twitter tags
 * from the HTML and never run the SPA, so the gateway writes the product's tags into the shell.
 * Only published products get tags; anything else gets the plain shell and the SPA decides.
 */
export interface SharePageOptions {
  webDist: string;
  /** The storefront's product reads (kept fresh by product events). */
  reads: ProductReads;
  /** Absolute origin the tags point at (og:url, og:image). */
  publicUrl: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DESCRIPTION_MAX = 200;
/** Served by the web build (web/public); used when the seller shows no preview. */
const BRAND_IMAGE_PATH = '/og-image.png';

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function truncate(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

function priceLabel(product: PublicProduct): string {
  if (product.pricing.type !== 'recurring') return product.priceFormatted;
  return `${product.priceFormatted}/${product.pricing.interval === 'yearly' ? 'year' : 'month'}`;
}

/** The head tags for a published product, every value escaped. */
export function shareTags(product: PublicProduct, publicUrl: string): string {
  const origin = publicUrl.replace(/\/+$/, '');
  const pageUrl = `${origin}/product/${product.id}`;
  const image = product.previewEnabled
    ? `${origin}/api/previews/${product.id}`
    : `${origin}${BRAND_IMAGE_PATH}`;
  const description = truncate(
    `${priceLabel(product)} · ${product.description?.trim() || 'Pay securely and download instantly on Lockdrop.'}`,
    DESCRIPTION_MAX,
  );
  const title = `${product.title} — ${priceLabel(product)}`;
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(`${product.title} · Lockdrop`)}</title>`,
    // The page's largest paint is this image; without the hint the browser finds it only after
    // the app's code and two API answers (Lighthouse: 1.9 s of "load delay" on a phone).
    ...(product.previewEnabled
      ? [`<link rel="preload" as="image" href="${escapeHtml(previewImagePath(product))}" />`]
      : []),
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(pageUrl)}" />`,
    meta('property', 'og:type', 'product'),
    meta('property', 'og:site_name', 'Lockdrop'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', pageUrl),
    meta('property', 'og:image', image),
    meta('property', 'product:price:amount', product.price),
    meta('property', 'product:price:currency', product.currency),
    meta('name', 'twitter:card', product.previewEnabled ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
  ].join('\n    ');
}

/** The shell with its generic title and description replaced by the product's tags. */
export function withShareTags(shell: string, tags: string): string {
  const stripped = shell
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  // A replacer function: a replacement string would expand `$&`, `$\`` … in a seller's title.
  if (/<\/head>/i.test(stripped))
    return stripped.replace(/<\/head>/i, () => `  ${tags}\n  </head>`);
  const doctype = /^<!doctype html>/i.exec(stripped);
  return doctype
    ? `${doctype[0]}${tags}${stripped.slice(doctype[0].length)}`
    : `${tags}${stripped}`;
}

/**
 * The built `index.html`, read once and again only when the file changed (a rebuild while the
 * gateway runs); looked at no more than once a second.
 */
function createShell(shellPath: string) {
  let html = '';
  let modifiedMs = -1;
  let checkedAt = 0;
  return async (): Promise<string> => {
    const now = Date.now();
    if (now - checkedAt < 1_000 && modifiedMs >= 0) return html;
    checkedAt = now;
    const { mtimeMs } = await stat(shellPath);
    if (mtimeMs !== modifiedMs) {
      html = await readFile(shellPath, 'utf8');
      modifiedMs = mtimeMs;
    }
    return html;
  };
}

export async function registerSharePage(app: HttpServer, options: SharePageOptions): Promise<void> {
  const shell = createShell(path.join(path.resolve(options.webDist), 'index.html'));
  /** The page made from each read, for as long as the read (and the shell) stays current. */
  const pages = new WeakMap<ProductRead, { html: string; page: string }>();

  /** The page with the product's tags, or null when there is no published product to show. */
  const pageFor = async (id: string, requestId: string, html: string): Promise<string | null> => {
    if (!UUID.test(id)) return null;
    const read = await options.reads.get(id.toLowerCase(), null, requestId);
    if (!read.published) return null;
    const made = pages.get(read);
    if (made?.html === html) return made.page;
    const page = withShareTags(html, shareTags(read.published, options.publicUrl));
    pages.set(read, { html, page });
    return page;
  };

  app.get(
    '/product/:id',
    // Like the storefront's product reads: in /metrics, not one log line each.
    { logLevel: 'warn', schema: { hide: true, params: z.object({ id: z.string() }) } },
    async (request, reply) => {
      const html = await shell();
      const page = await pageFor(request.params.id, request.id, html).catch((error: unknown) => {
        // Catalog down or slow: the page still works, only the rich preview is missing.
        request.log.warn({ err: error }, 'share-page tags unavailable');
        return null;
      });
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(page ?? html);
    },
  );
}

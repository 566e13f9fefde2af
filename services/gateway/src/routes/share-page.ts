import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { REQUEST_ID_HEADER, type HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { productStatusSchema } from '@lockdrop/contracts';

/**
 * `/product/:id` for link previews: chat apps and social sites read Open Graph / Twitter tags
 * from the HTML and never run the SPA, so the gateway writes the product's tags into the shell.
 * Only published products get tags; anything else gets the plain shell and the SPA decides.
 */
export interface SharePageOptions {
  webDist: string;
  catalogUrl: string;
  /** Absolute origin the tags point at (og:url, og:image). */
  publicUrl: string;
}

/** What catalog's public product read gives the tags. */
const sharedProductSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  status: productStatusSchema,
  price: z.string(),
  priceFormatted: z.string(),
  currency: z.string(),
  pricing: z.object({
    type: z.enum(['one_time', 'recurring']),
    interval: z.enum(['monthly', 'yearly']).optional(),
  }),
  previewEnabled: z.boolean(),
});
export type SharedProduct = z.infer<typeof sharedProductSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Catalog answers product reads from memory (invalidated on every write), so a short life here
 * keeps the catalog round trip off most shares while an edited, unpublished or deleted
 * product's preview is never more than a second old (issue 11).
 */
const CACHE_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 1_000;
const CATALOG_TIMEOUT_MS = 2_000;
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

function priceLabel(product: SharedProduct): string {
  if (product.pricing.type !== 'recurring') return product.priceFormatted;
  return `${product.priceFormatted}/${product.pricing.interval === 'yearly' ? 'year' : 'month'}`;
}

/** The head tags for a published product, every value escaped. */
export function shareTags(product: SharedProduct, publicUrl: string): string {
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

/** Published products' pages by id, for CACHE_TTL_MS. Misses are not cached: a just-published link must work at once. */
function createTagCache() {
  const entries = new Map<string, { page: string; expiresAt: number }>();
  return {
    get(id: string): string | undefined {
      const entry = entries.get(id);
      if (entry && entry.expiresAt > Date.now()) return entry.page;
      entries.delete(id);
      return undefined;
    },
    set(id: string, page: string): void {
      if (entries.size >= CACHE_MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(id, { page, expiresAt: Date.now() + CACHE_TTL_MS });
    },
  };
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
  const cache = createTagCache();
  const shell = createShell(path.join(path.resolve(options.webDist), 'index.html'));

  const fetchPublished = async (id: string, requestId: string): Promise<SharedProduct | null> => {
    // countView=false: building link previews is not a person viewing the product.
    const url = new URL(`/api/products/${id}?countView=false`, options.catalogUrl);
    const response = await fetch(url, {
      headers: { [REQUEST_ID_HEADER]: requestId },
      signal: AbortSignal.timeout(CATALOG_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    const product = sharedProductSchema.safeParse(await response.json());
    return product.success && product.data.status === 'published' ? product.data : null;
  };

  /** The page with the product's tags, or null when there is no published product to show. */
  const pageFor = async (id: string, requestId: string, html: string): Promise<string | null> => {
    if (!UUID.test(id)) return null;
    const cached = cache.get(id);
    if (cached) return cached;
    const product = await fetchPublished(id, requestId);
    if (!product) return null;
    const page = withShareTags(html, shareTags(product, options.publicUrl));
    cache.set(id, page);
    return page;
  };

  app.get(
    '/product/:id',
    { schema: { hide: true, params: z.object({ id: z.string() }) } },
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

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { previewImagePath } from '@lockdrop/contracts';
import type { ProductRead, ProductReads, PublicProduct } from './product-reads.js';
import { UUID } from './product-answers.js';

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
 * gateway runs); looked at no more than once a second. `current()` is the shell while it was
 * looked at within the second, for answers that cannot wait for the disk.
 */
function createShell(shellPath: string) {
  let html = '';
  let modifiedMs = -1;
  let checkedAt = 0;
  const fresh = () => modifiedMs >= 0 && Date.now() - checkedAt < 1_000;
  return {
    current: (): string | undefined => (fresh() ? html : undefined),
    async load(): Promise<string> {
      if (fresh()) return html;
      checkedAt = Date.now();
      const { mtimeMs } = await stat(shellPath);
      if (mtimeMs !== modifiedMs) {
        html = await readFile(shellPath, 'utf8');
        modifiedMs = mtimeMs;
      }
      return html;
    },
  };
}

/**
 * `/product/:id` for link previews: chat apps and social sites read Open Graph / Twitter tags
 * from the HTML and never run the SPA, so the gateway writes the product's tags into the shell.
 * Only published products get tags; anything else gets the plain shell and the SPA decides.
 */
export interface SharePages {
  /** The page for `id`: the shell with the product's tags, or the plain shell. */
  page(id: string, requestId: string): Promise<string>;
  /** The plain shell (the page when the product's read fails). */
  shell(): Promise<string>;
  /** The page for `id` when it can be given from memory now (the shell and the read are kept). */
  keptPage(id: string): string | undefined;
}

export function createSharePages({
  webDist,
  reads,
  publicUrl,
}: {
  webDist: string;
  /** The storefront's product reads (kept fresh by product events). */
  reads: ProductReads;
  /** Absolute origin the tags point at (og:url, og:image). */
  publicUrl: string;
}): SharePages {
  const shell = createShell(path.join(path.resolve(webDist), 'index.html'));
  /** The page made from each read, for as long as the read (and the shell) stays current. */
  const pages = new WeakMap<ProductRead, { html: string; page: string }>();

  const pageOf = (read: ProductRead, html: string): string => {
    if (!read.published) return html;
    const made = pages.get(read);
    if (made?.html === html) return made.page;
    const page = withShareTags(html, shareTags(read.published, publicUrl));
    pages.set(read, { html, page });
    return page;
  };

  return {
    async page(id, requestId) {
      const html = await shell.load();
      if (!UUID.test(id)) return html;
      const read = await reads.get(id.toLowerCase(), null, requestId);
      return pageOf(read, html);
    },
    shell: () => shell.load(),
    keptPage(id) {
      const html = shell.current();
      if (html === undefined || !UUID.test(id)) return undefined;
      const read = reads.peek(id.toLowerCase(), null);
      return read && pageOf(read, html);
    },
  };
}

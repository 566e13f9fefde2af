import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import {
  parseProductSlugId,
  previewImagePath,
  productPath,
  productSlug,
  STORE_DOMAIN_META,
} from '@lockdrop/contracts';
import type { StoreHost } from '../http/custom-domains.js';
import type { ProductRead, ProductReads, PublicProduct } from './product-reads.js';
import type { StoreDomains } from './store-domains.js';
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

/**
 * The head tags for a published product, every value escaped. `canonicalOrigin` is where the
 * page's canonical and `og:url` point (the store's verified domain, issue 28); images stay on
 * `publicUrl`, the site the page is served from.
 */
export function shareTags(
  product: PublicProduct,
  publicUrl: string,
  canonicalOrigin: string = publicUrl,
): string {
  const origin = publicUrl.replace(/\/+$/, '');
  // Every address of the product (its uuid, an old slug) names the readable one as canonical.
  const pageUrl = `${canonicalOrigin.replace(/\/+$/, '')}${productPath(product)}`;
  // A seller's brand (Pro and up) names the site and, without a preview, gives the card its logo.
  const brand = product.brand;
  const siteName = brand?.name ?? 'Lockdrop';
  const image = product.previewEnabled
    ? `${origin}/api/previews/${product.id}`
    : `${origin}${brand?.logoUrl ?? BRAND_IMAGE_PATH}`;
  const description = truncate(
    `${priceLabel(product)} · ${product.description?.trim() || `Pay securely and download instantly ${brand ? `from ${brand.name}` : 'on Lockdrop'}.`}`,
    DESCRIPTION_MAX,
  );
  const title = `${product.title} — ${priceLabel(product)}`;
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(`${product.title} · ${siteName}`)}</title>`,
    // The page's largest paint is this image; without the hint the browser finds it only after
    // the app's code and two API answers (Lighthouse: 1.9 s of "load delay" on a phone).
    ...(product.previewEnabled
      ? [`<link rel="preload" as="image" href="${escapeHtml(previewImagePath(product))}" />`]
      : []),
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(pageUrl)}" />`,
    meta('property', 'og:type', 'product'),
    meta('property', 'og:site_name', siteName),
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

/** The tags that tell the app it is on `store`'s domain (web/src/lib/store-domain.ts reads them). */
export function storeDomainTags(store: StoreHost, publicUrl: string): string {
  return [
    `<meta name="${STORE_DOMAIN_META.store}" content="${escapeHtml(store.handle)}" />`,
    `<meta name="${STORE_DOMAIN_META.site}" content="${escapeHtml(publicUrl.replace(/\/+$/, ''))}" />`,
  ].join('\n    ');
}

/**
 * The tags of a store page (`/s/:handle`) on Lockdrop's host whose store has a verified
 * domain: its canonical and Open Graph address is the domain's root, where the store lives.
 */
export function storeCanonicalTags(domainOrigin: string): string {
  const url = `${domainOrigin.replace(/\/+$/, '')}/`;
  return [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
  ].join('\n    ');
}

/** `tags` placed before `</head>` (or at the start), the page's own title kept. */
function withTags(html: string, tags: string): string {
  if (/<\/head>/i.test(html)) return html.replace(/<\/head>/i, () => `  ${tags}\n  </head>`);
  return `${tags}${html}`;
}

/**
 * A built HTML file (`index.html`, the product frame), read once and again only when the file
 * changed (a rebuild while the gateway runs); looked at no more than once a second.
 * `current()` is the file as last read, for answers that cannot wait for the disk; when that
 * look is over a second old it also starts the next one, so a rebuild shows within a request.
 */
function createShell(shellPath: string) {
  let html = '';
  let modifiedMs = -1;
  let checkedAt = 0;
  const fresh = () => modifiedMs >= 0 && Date.now() - checkedAt < 1_000;
  const load = async (): Promise<string> => {
    if (fresh()) return html;
    checkedAt = Date.now();
    const { mtimeMs } = await stat(shellPath);
    if (mtimeMs !== modifiedMs) {
      html = await readFile(shellPath, 'utf8');
      modifiedMs = mtimeMs;
    }
    return html;
  };
  return {
    current(): string | undefined {
      if (modifiedMs < 0) return undefined;
      if (!fresh()) void load().catch(() => undefined);
      return html;
    },
    load,
  };
}

/** What web's server entry (web/.ssr/prerender.js, built by `npm run build`) gives the gateway. */
interface ProductPageRenderer {
  renderProductPage(product: unknown): Promise<{ html: string; queries: unknown[] }>;
  /** The frame's placeholder for the product's HTML. */
  PRODUCT_OUTLET: string;
  /** The id of the JSON block the browser seeds its query cache from. */
  RENDERED_QUERIES_ID: string;
}

/** JSON inside `<script>`: `<` escaped, so no value can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/** A page as sent: the HTML, and the same compressed once for every request that takes it. */
export interface SharePage {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/** Made product pages kept in memory, most recently made first to stay. */
const MADE_PAGES = 256;

/** Brotli at 5: a product's page is made again whenever the product changes; reads wait on it. */
function sharePage(html: string): SharePage {
  const bytes = Buffer.from(html);
  return {
    html,
    br: brotliCompressSync(bytes, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip: gzipSync(bytes),
  };
}

/**
 * `/product/:id`: a published product's page is rendered here, from the kept product read,
 * into the product frame the web build writes (prerendered/_product.html: inline stylesheet,
 * scripts started after the first paint), with the read as the queries the browser hydrates
 * from. The buyer sees the product from the first response instead of after the app's code
 * and a second request (Lighthouse mobile: 89 with the page rendered in the browser, issue 11).
 * Link previews (chat apps, social sites read the tags and never run the SPA) get the product's
 * Open Graph / Twitter tags either way. Anything not published gets the plain shell with 404
 * (the SPA shows its not-found screen); without the server entry or the frame (an old build), or when rendering fails,
 * the shell carries the tags alone.
 */
export interface SharePages {
  /**
   * The page for `key`: a product id (`/product/:id`) or a readable address's `<slug>-<shortId>`
   * (`/p/:slugId`). On a custom domain (`store`), only that store's products, with their
   * canonical and Open Graph URLs on the domain (issue 28).
   */
  page(key: string, requestId: string, store?: StoreHost | null): Promise<PageAnswer>;
  /**
   * The app's shell for a page on a custom domain (its `/`, payment and receipt pages): marked
   * with the store, so the app shows the store's page at `/`; `canonicalPath` names the page.
   */
  storeShell(store: StoreHost, canonicalPath: string | null): Promise<SharePage>;
  /**
   * `/s/:handle` on Lockdrop's host: the app's shell, naming the store's verified domain as
   * canonical when it has one (the Lockdrop address keeps working, issue 28).
   */
  storePage(handle: string, requestId: string): Promise<SharePage>;
  /** The plain shell (the page when the product's read fails). */
  shell(): Promise<SharePage>;
  /**
   * The page for `key` when it can be given from memory now (the shell, the read and its
   * page are kept); otherwise undefined, and the page is made for the next request.
   */
  keptPage(key: string): PageAnswer | undefined;
}

/**
 * What a product address answers: its page (200); the shell with 404 when no published product
 * has it (unknown, draft, deleted: the SPA shows its not-found screen, and crawlers and link
 * checkers are told the truth); or a 301 to the current readable address when the slug in the
 * address is not the product's (renamed since the link was shared).
 */
export type PageAnswer = { status: 200 | 404; page: SharePage } | { status: 301; location: string };

interface Logger {
  warn(object: object, message: string): void;
}

export function createSharePages({
  webDist,
  rendererPath,
  reads,
  stores,
  publicUrl,
  domainOrigin,
  logger,
}: {
  webDist: string;
  /** web's server entry (`WEB_RENDERER`). */
  rendererPath: string;
  /** The storefront's product reads (kept fresh by product events). */
  reads: ProductReads;
  /** Which store handles have a verified domain (kept fresh by store events). */
  stores: StoreDomains;
  /** Absolute origin the tags point at (og:url, og:image). */
  publicUrl: string;
  /** The origin a store's verified domain is reached at (http/custom-domains.ts). */
  domainOrigin: (host: string) => string;
  logger: Logger;
}): SharePages {
  const dist = path.resolve(webDist);
  const shell = createShell(path.join(dist, 'index.html'));
  const frame = createShell(path.join(dist, 'prerendered', '_product.html'));
  let renderer: Promise<ProductPageRenderer | null> | undefined;
  const loadRenderer = () =>
    (renderer ??= import(pathToFileURL(rendererPath).href).then(
      (module: ProductPageRenderer) =>
        typeof module.renderProductPage === 'function' ? module : null,
      (error: unknown) => {
        logger.warn(
          { err: (error as Error).message, rendererPath },
          'no product page renderer: product pages carry their tags and render in the browser',
        );
        return null;
      },
    ));

  // What a product's page is made in: the frame, or the shell in a build without one.
  let frameFound = true;
  const base = {
    current: (): string | undefined => (frameFound ? frame.current() : shell.current()),
    async load(): Promise<string> {
      const html = await frame.load().catch(() => undefined);
      frameFound = html !== undefined;
      return html ?? shell.load();
    },
  };

  let plain: SharePage | undefined;
  /** The shell as a page, compressed once per version of it. */
  const plainPage = (html: string): SharePage =>
    plain?.html === html ? plain : (plain = sharePage(html));

  /**
   * Made pages by the read's content (its etag, a hash of catalog's answer), with the frame
   * (or shell) each was made in. A read is kept a second at most and then read again; keyed by
   * content, a product is rendered again only when it changed, not every second it is viewed.
   * The most recently made MADE_PAGES stay (a page and its two encodings: ≈90 KB).
   */
  const made = new Map<string, { in: string; page: SharePage }>();
  const making = new Map<string, Promise<SharePage>>();
  const keep = (etag: string, entry: { in: string; page: SharePage }) => {
    made.delete(etag);
    made.set(etag, entry);
    if (made.size > MADE_PAGES) made.delete(made.keys().next().value!);
  };

  /** Where a page is shown: our site, or a store's custom domain (its origin and markers). */
  interface Site {
    origin: string;
    tags: string;
  }
  const ourSite: Site = { origin: publicUrl, tags: '' };
  const siteOf = (store: StoreHost | null | undefined): Site =>
    store ? { origin: store.origin, tags: `\n    ${storeDomainTags(store, publicUrl)}` } : ourSite;

  /** The HTML of a published product's page, made in `inHtml`, for `site`. */
  const render = async (
    read: ProductRead,
    published: PublicProduct,
    inHtml: string,
    site: Site,
  ) => {
    // On Lockdrop's host too, a store with a verified domain is canonical there (Gumroad's
    // canonical pointing at gumroad.com from a seller's domain is the bug this avoids).
    const canonical =
      site === ourSite && published.storeDomain ? domainOrigin(published.storeDomain) : site.origin;
    const tags = shareTags(published, site.origin, canonical) + site.tags;
    const module = await loadRenderer();
    if (!module || !inHtml.includes(module.PRODUCT_OUTLET))
      return withShareTags(await shell.load(), tags);
    try {
      const rendered = await module.renderProductPage(JSON.parse(read.body));
      const body = `${rendered.html}</div><script type="application/json" id="${module.RENDERED_QUERIES_ID}">${scriptJson(rendered.queries)}</script>`;
      // A replacer function: a replacement string would expand `$&`, `$\`` … in a seller's text.
      return withShareTags(
        inHtml.replace(`${module.PRODUCT_OUTLET}</div>`, () => body),
        tags,
      );
    } catch (error) {
      logger.warn(
        { err: (error as Error).message, productId: published.id },
        'product page not rendered here; the browser renders it',
      );
      return withShareTags(await shell.load(), tags);
    }
  };

  /** A made page's key: the read's content on one site (a custom domain's page differs). */
  const madeKey = (read: ProductRead, site: Site) =>
    site === ourSite ? read.etag : `${site.origin} ${read.etag}`;

  const productPage = (read: ProductRead, inHtml: string, site: Site): Promise<SharePage> => {
    const key = madeKey(read, site);
    const kept = made.get(key);
    if (kept?.in === inHtml) return Promise.resolve(kept.page);
    let pending = making.get(key);
    if (!pending) {
      pending = render(read, read.published!, inHtml, site)
        .then((html) => {
          const page = sharePage(html);
          keep(key, { in: inHtml, page });
          return page;
        })
        .finally(() => making.delete(key));
      making.set(key, pending);
    }
    return pending;
  };

  /** Shells marked for a store's domain, by site and version of the shell. */
  const storeShells = new Map<string, { in: string; page: SharePage }>();
  const storeShell = async (store: StoreHost, canonicalPath: string | null) => {
    const html = await shell.load();
    const key = `${store.origin} ${store.handle} ${canonicalPath ?? ''}`;
    const kept = storeShells.get(key);
    if (kept?.in === html) return kept.page;
    const canonical = canonicalPath
      ? `\n    <link rel="canonical" href="${escapeHtml(`${store.origin}${canonicalPath}`)}" />`
      : '';
    const page = sharePage(withTags(html, storeDomainTags(store, publicUrl) + canonical));
    storeShells.delete(key);
    storeShells.set(key, { in: html, page });
    if (storeShells.size > MADE_PAGES) storeShells.delete(storeShells.keys().next().value!);
    return page;
  };

  /** The read's key for an address: a product id, or the short id of `<slug>-<shortId>`. */
  const keyOf = (key: string) => {
    if (UUID.test(key)) return { id: key.toLowerCase(), slug: null };
    const parsed = parseProductSlugId(key);
    return parsed ? { id: parsed.shortId, slug: parsed.slug } : null;
  };
  const notFound = (html: string): PageAnswer => ({ status: 404, page: plainPage(html) });
  /** A published product at an address whose slug is not its own: moved permanently. */
  const moved = (slug: string | null, product: PublicProduct): PageAnswer | null =>
    slug !== null && slug !== productSlug(product.title)
      ? { status: 301, location: productPath(product) }
      : null;

  return {
    async page(key, requestId, store) {
      const html = await shell.load();
      // On a custom domain the app's not-found screen shows in the store's frame.
      const missing = async (): Promise<PageAnswer> =>
        store ? { status: 404, page: await storeShell(store, null) } : notFound(html);
      const address = keyOf(key);
      if (!address) return missing();
      const read = await reads.get(address.id, null, requestId);
      if (!read.published) {
        // Catalog answered something other than "here it is" or "no such product" (an error):
        // the product may well exist, so the SPA decides, as when catalog is unreachable.
        return read.statusCode === 404 || read.statusCode === 200
          ? missing()
          : { status: 200, page: store ? await storeShell(store, null) : plainPage(html) };
      }
      // A store's domain shows that store's products only, never another seller's.
      if (store && read.published.ownerId !== store.sellerId) return missing();
      return (
        moved(address.slug, read.published) ?? {
          status: 200,
          page: await productPage(read, await base.load(), siteOf(store)),
        }
      );
    },
    shell: async () => plainPage(await shell.load()),
    storeShell,
    async storePage(handle, requestId) {
      const html = await shell.load();
      const host = await stores.domainOf(handle, requestId).catch((error: unknown) => {
        // Catalog down or slow: the page still works, only the canonical hint is missing.
        logger.warn({ err: (error as Error).message, handle }, 'store domain unavailable');
        return null;
      });
      if (!host) return plainPage(html);
      const key = `canonical ${host} ${handle}`;
      const kept = storeShells.get(key);
      if (kept?.in === html) return kept.page;
      const page = sharePage(withTags(html, storeCanonicalTags(domainOrigin(host))));
      storeShells.delete(key);
      storeShells.set(key, { in: html, page });
      if (storeShells.size > MADE_PAGES) storeShells.delete(storeShells.keys().next().value!);
      return page;
    },
    keptPage(key) {
      const html = shell.current();
      const address = keyOf(key);
      if (html === undefined || !address) return undefined;
      const read = reads.peek(address.id, null);
      if (!read) return undefined;
      if (!read.published) return read.statusCode === 404 ? notFound(html) : undefined;
      const redirect = moved(address.slug, read.published);
      if (redirect) return redirect;
      const inHtml = base.current();
      if (inHtml === undefined) return undefined;
      const kept = made.get(madeKey(read, ourSite));
      if (kept?.in === inHtml) return { status: 200, page: kept.page };
      void productPage(read, inHtml, ourSite).catch(() => undefined);
      return undefined;
    },
  };
}

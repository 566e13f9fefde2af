import { createHash } from 'node:crypto';
import { REQUEST_ID_HEADER } from '@lockdrop/http';
import {
  PRODUCT_ID,
  productDetailSchema,
  shortIdOf,
  type DomainEvent,
  type EventType,
  type ProductDetail,
} from '@lockdrop/contracts';

/** Catalog's public product read (libs/contracts), for the share page's tags and view counts. */
export type PublicProduct = ProductDetail;

/** Catalog's answer to an anonymous read, as bytes ready to send again. */
export interface ProductRead {
  statusCode: number;
  /**
   * The JSON text. A string, not a Buffer: Node sends a string body together with the headers
   * in one write, a Buffer in a second one (a writev per response, measured at a quarter of
   * the gateway's CPU under load).
   */
  body: string;
  etag: string;
  /** Set when the product is published: only those are shown, shared and counted. */
  published: PublicProduct | null;
}

export interface ProductReads {
  /** The anonymous read of `id` (price shown in `currency` when given). */
  get(id: string, currency: string | null, requestId: string): Promise<ProductRead>;
  peek(id: string, currency: string | null): ProductRead | undefined;
  /** A product or rates event arrived: drop what it may have changed. */
  onEvent(event: DomainEvent): void;
  /** Events may have been missed: drop everything. */
  forgetAll(): void;
}

const CATALOG_TIMEOUT_MS = 2_000;

/** The events that change what an anonymous product read answers. */
export const PRODUCT_READ_CHANGES = [
  'product.created',
  'product.updated',
  'product.published',
  'product.unpublished',
  'product.deleted',
  'fx.rates.updated',
  // The read carries the seller's brand, shown only while their plan includes it, and their
  // verified domain (the page's canonical address), named only while it serves.
  'store.brand_updated',
  'store.domain_updated',
  'plan.changed',
] as const satisfies EventType[];
const PRODUCT_CHANGES = new Set<EventType>(
  PRODUCT_READ_CHANGES.filter((type) => type.startsWith('product.')),
);

/**
 * The storefront's crowd reads (issue 11: a shared link opened by thousands at once) answered
 * from this process's memory instead of a hop to catalog. Product events drop a product the
 * moment catalog's outbox relays them (milliseconds after the commit), and `fx.rates.updated`
 * drops converted prices; `maxAgeMs` (1 s) bounds an entry even if an event is late or lost.
 * While `isLive()` is false (the bus connection is down) nothing is kept at all. Concurrent
 * misses for one entry share one catalog request.
 */
export function createProductReads({
  catalogUrl,
  isLive,
  maxAgeMs = 1_000,
  maxEntries = 10_000,
}: {
  catalogUrl: string;
  isLive: () => boolean;
  maxAgeMs?: number;
  maxEntries?: number;
}): ProductReads {
  const entries = new Map<string, { read: ProductRead; at: number }>();
  const loading = new Map<string, Promise<ProductRead>>();
  /** Bumped by every invalidation: a load that overlapped one is not kept (it may be older). */
  let epoch = 0;

  const keyOf = (id: string, currency: string | null) => `${id}|${currency ?? ''}`;

  async function load(
    id: string,
    currency: string | null,
    requestId: string,
  ): Promise<ProductRead> {
    const url = new URL(`/api/products/${id}`, catalogUrl);
    // Not a person viewing: the gateway counts the views it answers itself.
    url.searchParams.set('countView', 'false');
    if (currency) url.searchParams.set('currency', currency);
    const response = await fetch(url, {
      headers: { [REQUEST_ID_HEADER]: requestId },
      signal: AbortSignal.timeout(CATALOG_TIMEOUT_MS),
    });
    const body = await response.text();
    let published: PublicProduct | null = null;
    if (response.status === 200) {
      const parsed = productDetailSchema.safeParse(JSON.parse(body));
      if (parsed.success && parsed.data.status === 'published') published = parsed.data;
    }
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    return { statusCode: response.status, body, etag, published };
  }

  /** Drops matching entries and in-flight loads (a later reader must not join an older load). */
  function forget(matches: (key: string) => boolean) {
    epoch += 1;
    for (const key of entries.keys()) if (matches(key)) entries.delete(key);
    for (const key of loading.keys()) if (matches(key)) loading.delete(key);
  }

  return {
    peek(id, currency) {
      const cached = entries.get(keyOf(id, currency));
      return cached && Date.now() - cached.at < maxAgeMs ? cached.read : undefined;
    },
    async get(id, currency, requestId) {
      const key = keyOf(id, currency);
      const cached = entries.get(key);
      if (cached && Date.now() - cached.at < maxAgeMs) return cached.read;
      const pending = loading.get(key);
      if (pending) return pending;
      const startedAt = epoch;
      const request = load(id, currency, requestId)
        .then((read) => {
          // 200 and 404 are answers about the product; anything else (a bad currency, an
          // outage) goes back to this caller only.
          const keep = (read.statusCode === 200 || read.statusCode === 404) && isLive();
          if (keep && startedAt === epoch) {
            if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
            entries.set(key, { read, at: Date.now() });
          }
          return read;
        })
        .finally(() => {
          if (loading.get(key) === request) loading.delete(key);
        });
      loading.set(key, request);
      return request;
    },
    onEvent(event) {
      if (event.type === 'fx.rates.updated') forget((key) => !key.endsWith('|'));
      else if (PRODUCT_CHANGES.has(event.type) && 'productId' in event.data) {
        // Read by its id, or by its short id (a readable address, `/p/<slug>-<shortId>`).
        const productId = String(event.data.productId);
        const prefixes = [`${productId}|`];
        if (PRODUCT_ID.test(productId)) prefixes.push(`${shortIdOf(productId)}|`);
        forget((key) => prefixes.some((prefix) => key.startsWith(prefix)));
      } else if (
        event.type === 'store.brand_updated' ||
        event.type === 'store.domain_updated' ||
        event.type === 'plan.changed'
      ) {
        const data = event.data as { sellerId?: string; userId?: string };
        const sellerId = data.sellerId ?? data.userId;
        forget((key) => entries.get(key)?.read.published?.ownerId === sellerId);
      }
    },
    forgetAll() {
      forget(() => true);
    },
  };
}

import { REQUEST_ID_HEADER } from '@lockdrop/http';
import { STORE_HANDLE_PATTERN, storePageSchema, type EventType } from '@lockdrop/contracts';

/**
 * Which store handle has a verified custom domain (issue 28), for `/s/:handle`'s canonical
 * address on Lockdrop's host: asked of catalog's store read, kept per replica up to `ttlMs`
 * and dropped whole on any event that can change it (a domain verified, paused or removed, a
 * handle changed, a plan without custom domains). Those events are rare; a store page's view
 * is not, and costs no catalog request while the answer is kept.
 */
export interface StoreDomains {
  /** The host of `handle`'s verified domain, or null (no such store, or no domain serving). */
  domainOf(handle: string, requestId: string): Promise<string | null>;
  onEvent(): void;
  forgetAll(): void;
}

/** The events after which a kept answer may be wrong. */
export const STORE_DOMAIN_CHANGES = [
  'store.domain_updated',
  'store.brand_updated',
  'plan.changed',
] as const satisfies EventType[];

const CATALOG_TIMEOUT_MS = 2_000;

export function createStoreDomains({
  catalogUrl,
  ttlMs,
  maxEntries = 10_000,
}: {
  catalogUrl: string;
  ttlMs: number;
  maxEntries?: number;
}): StoreDomains {
  const kept = new Map<string, { host: string | null; until: number }>();
  const asking = new Map<string, Promise<string | null>>();
  // Bumped by every forget: an answer asked for before an event is not kept after it.
  let generation = 0;

  async function ask(handle: string, requestId: string): Promise<string | null> {
    const response = await fetch(new URL(`/api/stores/${encodeURIComponent(handle)}`, catalogUrl), {
      headers: { [REQUEST_ID_HEADER]: requestId },
      signal: AbortSignal.timeout(CATALOG_TIMEOUT_MS),
    });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`catalog answered ${response.status} for a store`);
    return storePageSchema.parse(await response.json()).domain;
  }

  const forgetAll = () => {
    generation += 1;
    kept.clear();
    // A question asked before the event must not answer the next visitor either.
    asking.clear();
  };

  return {
    async domainOf(handle, requestId) {
      const key = handle.toLowerCase();
      if (!STORE_HANDLE_PATTERN.test(key)) return null;
      const entry = kept.get(key);
      if (entry && entry.until > Date.now()) return entry.host;
      const pending = asking.get(key);
      if (pending) return pending;
      // One question per handle at a time, however many visitors wait on it.
      const askedIn = generation;
      const question: Promise<string | null> = ask(key, requestId)
        .then((host) => {
          if (askedIn === generation) {
            kept.delete(key);
            kept.set(key, { host, until: Date.now() + ttlMs });
            if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
          }
          return host;
        })
        .finally(() => {
          if (asking.get(key) === question) asking.delete(key);
        });
      asking.set(key, question);
      return question;
    },
    onEvent: forgetAll,
    forgetAll,
  };
}

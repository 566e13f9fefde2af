import { isIP } from 'node:net';
import { domainRouteSchema, type DomainRoute } from '@lockdrop/contracts';

/** A request on a verified custom domain: the store it shows and the origin the buyer is on. */
export interface StoreHost {
  host: string;
  /** `https://shop.example.com` (scheme as the client used it, port kept). */
  origin: string;
  sellerId: string;
  handle: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request came in on a verified custom domain (issue 28); null on ours. */
    storeHost: StoreHost | null;
  }
}

/** The Host header's name: lowercase, without port or trailing dot; null when absent. */
export function hostnameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  const text = hostHeader.trim().toLowerCase();
  const name = text.startsWith('[') ? text.slice(0, text.indexOf(']') + 1) : text.split(':')[0]!;
  return name.replace(/\.$/, '') || null;
}

/**
 * Which store a custom domain shows, asked of catalog (`/internal/domains/:host`) and kept per
 * replica: `ttlMs` at most, dropped at once on `store.domain_updated` and on the seller's
 * `plan.changed`. Unknown hosts are kept too (a scan of random names is one catalog read per
 * name and TTL), up to `maxEntries`, oldest first out.
 */
export interface DomainDirectory {
  /** Ours: no Host, an IP address, `localhost`, PUBLIC_URL's host or one of GATEWAY_HOSTS. */
  isOwnHost(hostname: string | null): boolean;
  /** The store `hostname` shows now, or null (unknown, pending, paused, plan without it). */
  storeOf(hostname: string): Promise<DomainRoute | null>;
  forgetHost(hostname: string): void;
  forgetSeller(sellerId: string): void;
  forgetAll(): void;
}

const LOOKUP_TIMEOUT_MS = 3_000;

export function createDomainDirectory({
  catalogUrl,
  ownHosts,
  ttlMs,
  maxEntries = 10_000,
}: {
  catalogUrl: string;
  ownHosts: readonly string[];
  ttlMs: number;
  maxEntries?: number;
}): DomainDirectory {
  const own = new Set(ownHosts.map((host) => host.toLowerCase()));
  const kept = new Map<string, { route: DomainRoute | null; until: number }>();
  const asking = new Map<string, Promise<DomainRoute | null>>();
  // Bumped by every forget: an answer asked for before an event is not kept after it.
  let generation = 0;

  async function ask(hostname: string): Promise<DomainRoute | null> {
    const response = await fetch(
      new URL(`/internal/domains/${encodeURIComponent(hostname)}`, catalogUrl),
      { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) },
    );
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`catalog answered ${response.status} for a domain`);
    return domainRouteSchema.parse(await response.json());
  }

  function keep(hostname: string, route: DomainRoute | null) {
    kept.delete(hostname);
    kept.set(hostname, { route, until: Date.now() + ttlMs });
    if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
  }

  return {
    isOwnHost: (hostname) =>
      hostname === null ||
      isIP(hostname.replace(/^\[|\]$/g, '')) !== 0 ||
      hostname === 'localhost' ||
      own.has(hostname),

    async storeOf(hostname) {
      const entry = kept.get(hostname);
      if (entry && entry.until > Date.now()) return entry.route?.serving ? entry.route : null;
      let pending = asking.get(hostname);
      if (!pending) {
        // One question per host at a time, however many requests wait on it.
        const askedIn = generation;
        pending = ask(hostname)
          .then((route) => {
            if (askedIn === generation) keep(hostname, route);
            return route;
          })
          .finally(() => asking.delete(hostname));
        asking.set(hostname, pending);
      }
      const route = await pending;
      return route?.serving ? route : null;
    },

    forgetHost(hostname) {
      generation += 1;
      kept.delete(hostname.toLowerCase());
    },
    forgetSeller(sellerId) {
      generation += 1;
      for (const [hostname, entry] of kept)
        if (entry.route?.sellerId === sellerId) kept.delete(hostname);
    },
    forgetAll() {
      generation += 1;
      kept.clear();
    },
  };
}

/**
 * The origin a store's verified domain is reached at, for pages that name it from Lockdrop's
 * own host (canonical and Open Graph URLs): in production always `https://<host>` (the edge
 * speaks TLS for every domain); elsewhere the scheme and port of `PUBLIC_URL`, as a local
 * gateway answers every name on its one port.
 */
export function domainOriginOf(host: string, publicUrl: string, httpsOnly: boolean): string {
  if (httpsOnly) return `https://${host}`;
  const ours = new URL(publicUrl);
  return `${ours.protocol}//${host}${ours.port ? `:${ours.port}` : ''}`;
}

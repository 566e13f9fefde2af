import { STORE_DOMAIN_META } from '@lockdrop/contracts';

/**
 * The store whose custom domain this page is on (issue 28), from the tags the gateway writes
 * into pages it serves there; null on Lockdrop's own site and while prerendering. On a store's
 * domain `/` is the store's page, the brand links to `/`, and "Sold with Lockdrop" names
 * Lockdrop's own address.
 */
export interface StoreDomain {
  handle: string;
  /** Lockdrop's own origin, e.g. https://lockdrop.app. */
  siteUrl: string;
}

function metaContent(name: string): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') || null;
}

export function storeDomain(): StoreDomain | null {
  const handle = metaContent(STORE_DOMAIN_META.store);
  const siteUrl = metaContent(STORE_DOMAIN_META.site);
  return handle && siteUrl ? { handle, siteUrl } : null;
}

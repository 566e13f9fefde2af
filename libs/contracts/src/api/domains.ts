import { z } from 'zod';
import { planIdSchema } from '../shared.js';

/**
 * A custom domain's state (issue 28): `pending` until DNS proves ownership and routing,
 * `verified` while it does (the gateway serves the store there), `paused` after a verified
 * domain stopped proving it on several re-checks in a row (the seller is e-mailed).
 */
export const domainStatusSchema = z.enum(['pending', 'verified', 'paused']);
export type DomainStatus = z.infer<typeof domainStatusSchema>;

/** How one DNS record looked at the last check. */
export const recordCheckSchema = z.enum(['ok', 'missing', 'wrong']);

/** A record the seller creates at their DNS host. */
export const dnsRecordSchema = z.object({
  type: z.enum(['TXT', 'CNAME', 'A']),
  name: z.string(),
  value: z.string(),
  /** `ownership` (the TXT token) or `routing` (where buyers' browsers go: our edge). */
  purpose: z.enum(['ownership', 'routing']),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const storeDomainSchema = z.object({
  host: z.string(),
  status: domainStatusSchema,
  /** What to create: the TXT token, then a CNAME (or, at a domain's root, A records). */
  records: z.array(dnsRecordSchema),
  /** The root of a domain (`example.com`) cannot hold a CNAME: the A records are the way. */
  apex: z.boolean(),
  lastCheckedAt: z.iso.datetime({ offset: true }).nullable(),
  /** The last check's finding per record, and its words for the seller; null before the first. */
  lastCheck: z
    .object({
      ownership: recordCheckSchema,
      routing: recordCheckSchema,
      message: z.string(),
    })
    .nullable(),
  verifiedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type StoreDomain = z.infer<typeof storeDomainSchema>;

/** GET /api/domain: the seller's domain and whether their plan serves one. */
export const domainSettingsSchema = z.object({
  domain: storeDomainSchema.nullable(),
  plan: planIdSchema,
  domainIncluded: z.boolean(),
  /** The cheapest plan with a custom domain, for the screen's "unlocked by" line. */
  domainPlan: planIdSchema,
  /** The store's handle: a domain shows that store, so a brand must be saved first. */
  handle: z.string().nullable(),
});
export type DomainSettings = z.infer<typeof domainSettingsSchema>;

/** PUT /api/domain: shape only; catalog normalises the host and checks the rules. */
export const addDomainSchema = z.object({
  host: z.string().trim().toLowerCase().min(1).max(253),
});
export type AddDomainInput = z.infer<typeof addDomainSchema>;

/**
 * Catalog's internal answer to the gateway: which store a host shows. `serving` is false while
 * the domain is not verified or the seller's plan no longer includes custom domains.
 */
export const domainRouteSchema = z.object({
  host: z.string(),
  sellerId: z.uuid(),
  handle: z.string(),
  serving: z.boolean(),
});
export type DomainRoute = z.infer<typeof domainRouteSchema>;

/**
 * Set by the gateway alone on requests that arrived on a verified custom domain (it drops any a
 * client sends): the origin the buyer is on and the store it shows. Payments sends the
 * provider's `redirect_url` back to that origin when the checkout is that store's.
 */
export const STORE_ORIGIN_HEADER = 'x-lockdrop-store-origin';
export const STORE_SELLER_HEADER = 'x-lockdrop-store-seller';

/**
 * Meta tags the gateway writes into pages served on a custom domain: the store's handle (its
 * page is the domain's `/`) and Lockdrop's own address (the "Sold with Lockdrop" link).
 */
export const STORE_DOMAIN_META = { store: 'lockdrop-store', site: 'lockdrop-site' } as const;

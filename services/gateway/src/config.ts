import { fileURLToPath } from 'node:url';
import { baseServiceEnv, env, redisEnv } from '@lockdrop/config';
import { z } from 'zod';
import { trustFunction, type TrustedProxies } from './http/client.js';

const defaultWebDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const defaultWebRenderer = fileURLToPath(
  new URL('../../../web/.ssr/prerender.js', import.meta.url),
);

export const configSchema = z.object({
  ...baseServiceEnv,
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: env.port(8080),
  ...redisEnv,
  /** Product events keep the storefront's product reads fresh; views go to catalog over it. */
  NATS_URL: env.natsUrl,
  BUS_NAMESPACE: env.busNamespace,
  /** Keys the visitor cookie and visitor-id hash, so analytics never holds a reversible IP. */
  VISITOR_ID_SECRET: z.string().min(16).default('lockdrop-local-visitor-secret'),
  IDENTITY_URL: env.url('http://127.0.0.1:3001'),
  CATALOG_URL: env.url('http://127.0.0.1:3002'),
  PAYMENTS_URL: env.url('http://127.0.0.1:3003'),
  DELIVERY_URL: env.url('http://127.0.0.1:3004'),
  ANALYTICS_URL: env.url('http://127.0.0.1:3005'),
  /** The worker serves the dashboard's webhook settings. */
  WORKER_URL: env.url('http://127.0.0.1:3006'),
  /** The public origin, for absolute URLs in share-page tags (og:url, og:image). */
  PUBLIC_URL: env.url('http://localhost:8080'),
  /** The built SPA (`npm run build -w web`). */
  WEB_DIST: z.string().min(1).default(defaultWebDist),
  /**
   * web's server entry (built with it), which renders a product's page from its product read;
   * without it product pages render in the browser, as every page did before.
   */
  WEB_RENDERER: z.string().min(1).default(defaultWebRenderer),
  /** Requests per minute per client IP, counted per route (storefront reads have their own). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Stricter budget for sign-in/sign-up and checkout, which attackers hammer. */
  SENSITIVE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /**
   * Provider payment notifications per minute per sending address (a flood guard, not a budget:
   * a provider's flash-sale storm comes from a few addresses, and whatever is refused it sends
   * again later). 120,000 a minute is 2,000 a second, the ingestion target of issue 31.
   */
  WEBHOOK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120_000),
  /** JSON/form bodies; uploads have their own, plan-based limit enforced by delivery. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  UPLOAD_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024 + 1024 * 1024),
  /**
   * The proxies in front of the gateway (an ingress, a CDN): `false`, their number (`1` behind
   * one ingress) or their addresses (`10.0.0.0/8,loopback`). `true` is refused: it trusts every
   * hop, so a client could pick its own address and walk past the per-IP rate limits.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context): TrustedProxies => {
      const text = value.trim().toLowerCase();
      if (text === '' || text === 'false' || text === '0') return false;
      if (/^\d+$/.test(text)) return Number(text);
      if (text === 'true') {
        context.addIssue({
          code: 'custom',
          message:
            'true trusts every hop, so any client could choose its own address: give the number of proxies in front of the gateway (e.g. 1) or their addresses (CIDRs, comma-separated)',
        });
        return z.NEVER;
      }
      const addresses = text.split(',').map((address) => address.trim());
      try {
        trustFunction(addresses);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
      return addresses;
    }),
  /** Requests per minute per API key on /api/v1 (its own budget, apart from the per-IP ones). */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(100),
  /**
   * How long identity's answer about an API key is kept per replica. A key revoked elsewhere
   * stops at once when the revocation event arrives, and at the latest after this.
   */
  API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  /**
   * How long a replica keeps identity's answer on whether a member acting for a store still
   * holds their role (issue 28); a removal or role change ends it at once (http/store-members.ts).
   */
  TEAM_MEMBERSHIP_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  /**
   * Custom domains (issue 28): how long a replica keeps catalog's answer on which store a Host
   * shows. A verification, pause or removal ends it at once (store.domain_updated), a plan
   * change too; this bounds what an event missed while the bus was away can leave behind.
   */
  DOMAIN_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  /**
   * Our own host names besides PUBLIC_URL's (comma-separated, e.g. `www.lockdrop.app`): served
   * as the main site. Any other name is a store's custom domain or a 404 page. IP addresses and
   * `localhost` are always ours (probes, local development).
   */
  GATEWAY_HOSTS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Prefix of the gateway's Redis keys; tests give each run its own. */
  REDIS_KEY_PREFIX: z.string().min(1).default('lockdrop:gateway:'),
});
export type GatewayConfig = z.infer<typeof configSchema>;

import { isIPv4 } from 'node:net';
import { env } from '@lockdrop/config';
import { mailEnv } from '@lockdrop/mailer';
import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

/** A comma-separated list (blank items dropped), each item checked by `valid`. */
const commaList = (valid: (item: string) => boolean, what: string) =>
  z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine((items) => items.every(valid), `each item must be ${what}`);
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
const DNS_SERVER = /^[0-9a-f.:[\]]+$/i;

export const configSchema = z.object({
  ...serviceEnv(3002),
  /** Asked synchronously whether an upload belongs to the seller creating the product. */
  DELIVERY_URL: env.url('http://127.0.0.1:3004'),
  /**
   * Rates older than this many hours are not used to show a price in another currency (issue
   * 30): the product page then shows its own currency with the missing-rate warning, as payments
   * refuses to charge in another currency on them. 0 = no bound; unset: 48 in production, 0
   * elsewhere (the shipped seed rates are old).
   */
  FX_MAX_RATE_AGE_HOURS: z.coerce.number().int().min(0).optional(),
  /** Links in e-mails (a paused domain's notice names the settings page). */
  PUBLIC_URL: env.url('http://localhost:8080'),
  /**
   * Custom domains (issue 28): the name a seller's CNAME points at — the edge (Caddy) in front
   * of the gateway, whose on-demand certificates cover verified domains.
   */
  EDGE_HOST: z
    .string()
    .trim()
    .toLowerCase()
    .default('edge.lockdrop.app')
    .refine((host) => HOST_NAME.test(host), 'must be a host name like edge.example.com'),
  /** The edge's IPv4 addresses, for the root of a domain, which cannot hold a CNAME (A records). */
  EDGE_ADDRESSES: commaList(isIPv4, 'an IPv4 address'),
  /** DNS servers asked (`ip` or `ip:port`, comma-separated); unset: the system's resolvers. */
  DNS_SERVERS: commaList((server) => DNS_SERVER.test(server), 'an address, optionally :port'),
  /** One DNS question's time limit; a timeout is "DNS unavailable", never "record missing". */
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3_000),
  /** Failed re-checks in a row (records definitely gone or wrong) before a verified domain pauses. */
  DOMAIN_FAILED_CHECKS_BEFORE_PAUSE: z.coerce.number().int().min(1).max(100).default(3),
  ...mailEnv,
  MAIL_FROM: z.string().min(3).default('Lockdrop <no-reply@lockdrop.app>'),
});
export type CatalogConfig = z.infer<typeof configSchema>;

/** The rate-age bound in hours: FX_MAX_RATE_AGE_HOURS, or 48 in production and none elsewhere. */
export const maxRateAgeHours = (config: CatalogConfig): number =>
  config.FX_MAX_RATE_AGE_HOURS ?? (config.NODE_ENV === 'production' ? 48 : 0);

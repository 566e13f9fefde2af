import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import type { DnsRecord } from '@lockdrop/contracts';
import { AppError } from '@lockdrop/http';
import type { DnsLookups } from '../adapters/dns.js';
import type { RecordCheck } from '../db/domains.repo.js';

/** The edge sellers point their domain at: a name for CNAMEs, addresses for a domain's root. */
export interface Edge {
  host: string;
  addresses: readonly string[];
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** CNAME hops followed before giving up (resolvers stop around 8–16; a loop stops here too). */
const MAX_CNAME_HOPS = 8;

const invalidDomain = (message: string) => new AppError('invalid_domain', 400, message);

/** `name` without a trailing dot, lowercase: DNS names compare case-insensitively. */
const canonical = (name: string) => name.trim().replace(/\.$/, '').toLowerCase();

/**
 * The host a seller typed, as stored and matched: lowercase ASCII (an internationalised name
 * in punycode), no scheme, path, port or trailing dot. Refuses what cannot be a store's own
 * domain: IP addresses, single labels, `localhost`, and our own hosts and their subdomains.
 */
export function normalizeHost(input: string, ownHosts: readonly string[]): string {
  const bare = input
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '');
  if (isIP(bare) || isIP(bare.replace(/^\[|\]$/g, '')))
    throw invalidDomain('Enter a domain name like shop.example.com, not an IP address');
  if (/:\d+$/.test(bare))
    throw invalidDomain('Enter the domain without a port, like shop.example.com');
  const host = domainToASCII(bare.toLowerCase());
  const labels = host.split('.');
  if (
    !host ||
    host.length > 253 ||
    labels.length < 2 ||
    !labels.every((label) => LABEL.test(label)) ||
    /^[0-9]+$/.test(labels.at(-1)!)
  )
    throw invalidDomain('Enter a domain name like shop.example.com');
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw invalidDomain('A local name cannot be a store domain');
  for (const own of ownHosts) {
    if (host === own || host.endsWith(`.${own}`))
      throw invalidDomain(`${host} is one of Lockdrop's own addresses`);
  }
  return host;
}

/**
 * Whether `host` is the root of a registered domain (`example.com`), which cannot hold a CNAME.
 * Two labels is the common case; `shop.co.uk`-style roots also verify with A records, and the
 * screen shows both ways.
 */
export const isApex = (host: string) => host.split('.').length === 2;

export const ownershipName = (host: string) => `_lockdrop.${host}`;
export const ownershipValue = (token: string) => `lockdrop-verify=${token}`;

/** What the seller creates: the TXT token, then a CNAME to the edge (a root: A records). */
export function expectedRecords(host: string, token: string, edge: Edge): DnsRecord[] {
  const ownership: DnsRecord = {
    type: 'TXT',
    name: ownershipName(host),
    value: ownershipValue(token),
    purpose: 'ownership',
  };
  if (!isApex(host) || edge.addresses.length === 0)
    return [ownership, { type: 'CNAME', name: host, value: edge.host, purpose: 'routing' }];
  return [
    ownership,
    ...edge.addresses.map((address): DnsRecord => ({
      type: 'A',
      name: host,
      value: address,
      purpose: 'routing',
    })),
  ];
}

export interface DomainCheck {
  ownership: RecordCheck;
  routing: RecordCheck;
}

/**
 * The TXT record: any record at `_lockdrop.<host>` whose strings, joined (DNS hosts split long
 * values), equal our value, whatever the case or surrounding spaces. Other records there
 * (SPF, another service's token) are ignored; a `lockdrop-verify=` with another token is wrong.
 */
async function checkOwnership(dns: DnsLookups, host: string, token: string): Promise<RecordCheck> {
  const values = (await dns.txt(ownershipName(host))).map((strings) =>
    strings.join('').trim().toLowerCase(),
  );
  if (values.includes(ownershipValue(token))) return 'ok';
  return values.some((value) => value.startsWith('lockdrop-verify=')) ? 'wrong' : 'missing';
}

/**
 * Routing: the host's CNAME chain reaches the edge host (followed hop by hop, so a chain
 * through the seller's CDN or another alias counts), or, for a root (A/ALIAS), every address
 * it resolves to is one of the edge's.
 */
async function checkRouting(dns: DnsLookups, host: string, edge: Edge): Promise<RecordCheck> {
  const edgeHost = canonical(edge.host);
  let name = host;
  let aliased = false;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop += 1) {
    const [target] = await dns.cname(name);
    if (!target) break;
    aliased = true;
    name = canonical(target);
    if (name === edgeHost) return 'ok';
  }
  const addresses = await dns.ipv4(host);
  if (
    edge.addresses.length > 0 &&
    addresses.length > 0 &&
    addresses.every((address) => edge.addresses.includes(address))
  )
    return 'ok';
  return aliased || addresses.length > 0 ? 'wrong' : 'missing';
}

/** Both records, looked up now. Throws `DnsUnavailableError` when DNS gave no answer. */
export async function checkDomain(
  dns: DnsLookups,
  domain: { host: string; token: string },
  edge: Edge,
): Promise<DomainCheck> {
  const [ownership, routing] = await Promise.all([
    checkOwnership(dns, domain.host, domain.token),
    checkRouting(dns, domain.host, edge),
  ]);
  return { ownership, routing };
}

const FINDINGS: Record<keyof DomainCheck, Record<Exclude<RecordCheck, 'ok'>, string>> = {
  ownership: {
    missing: 'The TXT record was not found yet.',
    wrong: 'The TXT record holds another token: copy the value shown here.',
  },
  routing: {
    missing: 'The CNAME (or A) record was not found yet.',
    wrong: 'The domain points somewhere else: point it at the address shown here.',
  },
};

/** The seller's words for a check. DNS changes can take a while to be seen everywhere. */
export function checkMessage(check: DomainCheck): string {
  if (check.ownership === 'ok' && check.routing === 'ok')
    return 'Both records are in place: your domain serves your store.';
  const findings = (['ownership', 'routing'] as const)
    .filter((part) => check[part] !== 'ok')
    .map((part) => FINDINGS[part][check[part] as Exclude<RecordCheck, 'ok'>]);
  return `${findings.join(' ')} New records can take up to an hour to be seen; we keep checking.`;
}

export const DNS_UNAVAILABLE_MESSAGE =
  'We could not ask DNS just now, so nothing changed; we will try again shortly.';

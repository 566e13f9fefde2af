import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * SSRF guard for deliveries: a seller's URL must not reach our own network. Names are resolved
 * at send time and every address checked; the request then connects to the checked address
 * (through `lookup`), so a DNS answer that changes between check and connect cannot slip in.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  refused.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is checked as the IPv4 address it is. */
function unmapped(address: string, family: 4 | 6): ResolvedAddress {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? { address: mapped[1]!, family: 4 } : { address, family };
}

export function isRefusedAddress(
  address: string,
  family: 4 | 6,
  options: { allowLoopback: boolean },
): boolean {
  const checked = unmapped(address, family);
  const type = checked.family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(checked.address, type)) return !options.allowLoopback;
  return refused.check(checked.address, type);
}

/** Resolves `hostname` and refuses it if any address it has is one we must not reach. */
export async function resolvePublicAddress(
  hostname: string,
  options: { allowLoopback: boolean },
): Promise<ResolvedAddress> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  const addresses: ResolvedAddress[] = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => ({
        address: entry.address,
        family: entry.family as 4 | 6,
      }));
  const bad = addresses.find((entry) => isRefusedAddress(entry.address, entry.family, options));
  if (bad || addresses.length === 0)
    throw new RefusedAddressError(
      `${hostname} resolves to ${bad?.address ?? 'nothing'}, a private or reserved address; deliveries go to public addresses only`,
    );
  return addresses[0]!;
}

/** A `lookup` for http.request that answers only the address already checked. */
export function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [resolved]);
    else callback(null, resolved.address, resolved.family);
  };
}

import { Resolver } from 'node:dns/promises';

/**
 * The DNS questions a custom domain's check asks (issue 28). Production asks the system's
 * resolvers, or `DNS_SERVERS`, through `node:dns`; tests point the same resolver at a fake DNS
 * server that misbehaves on demand (libs/testing `startFakeDns`).
 */
export interface DnsLookups {
  /** Each TXT record as the strings it was published in (a long value comes split). */
  txt(name: string): Promise<string[][]>;
  /** The name's CNAME target, one hop. */
  cname(name: string): Promise<string[]>;
  /** The IPv4 addresses the name ends at, CNAMEs followed. */
  ipv4(name: string): Promise<string[]>;
}

/**
 * Codes that mean "the answer is: no such record" (the name does not exist, or has no record
 * of that type). Anything else — SERVFAIL, a timeout, a refused or unreachable server — tells
 * nothing about the seller's records, so a check that meets it changes no domain's state.
 */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

export class DnsUnavailableError extends Error {
  override name = 'DnsUnavailableError';
}

/** `[]` when DNS answered that there is no such record; throws `DnsUnavailableError` otherwise. */
async function records<T>(question: Promise<T[]>): Promise<T[]> {
  try {
    return await question;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (NO_RECORD.has(code)) return [];
    throw new DnsUnavailableError(`DNS did not answer (${code || (error as Error).message})`);
  }
}

export function systemDns({
  servers,
  timeoutMs,
}: {
  servers: readonly string[];
  timeoutMs: number;
}): DnsLookups {
  // Two tries: one lost UDP packet should not read as an outage.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length) resolver.setServers([...servers]);
  return {
    txt: (name) => records(resolver.resolveTxt(name)),
    cname: (name) => records(resolver.resolveCname(name)),
    ipv4: (name) => records(resolver.resolve4(name)),
  };
}

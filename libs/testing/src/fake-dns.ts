import { createSocket, type RemoteInfo } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';

/**
 * A record in the fake's zone. A TXT record may hold several strings, as a long value does at
 * most DNS hosts (each string is at most 255 bytes; readers must join them).
 */
export type FakeDnsRecord =
  | { type: 'TXT'; name: string; strings: string[] }
  | { type: 'CNAME'; name: string; target: string }
  | { type: 'A'; name: string; address: string };

/**
 * How the fake answers: `ok`; `servfail` (the upstream broke: rcode SERVFAIL for every query);
 * `timeout` (queries are read and never answered); `stale` (answers come from the zone as it
 * was when this was switched on, like a recursive resolver's cache that has not expired, so a
 * change made since is not seen yet).
 */
export type FakeDnsBehaviour =
  { kind: 'ok' } | { kind: 'servfail' } | { kind: 'timeout' } | { kind: 'stale' };

export interface FakeDns {
  /** `127.0.0.1:<port>`, for a resolver's `setServers` (the `DNS_SERVERS` setting). */
  server: string;
  port: number;
  /** Every question asked, in order (names as asked). */
  queries: { name: string; type: string }[];
  /** Replaces every record at `name` (any case) with `records`. */
  set(name: string, records: FakeDnsRecord[]): void;
  /** Removes every record at `name`. */
  clear(name: string): void;
  behave(behaviour: FakeDnsBehaviour): void;
  close(): Promise<void>;
}

const MAX_CHAIN = 8;
/** Response codes live in the header's low four bits (RFC 1035 §4.1.1). */
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

function answerOf(record: FakeDnsRecord): dnsPacket.Answer {
  const base = { name: record.name.replace(/\.$/, ''), ttl: 60, class: 'IN' as const };
  if (record.type === 'TXT') return { ...base, type: 'TXT', data: record.strings };
  if (record.type === 'CNAME') return { ...base, type: 'CNAME', data: record.target };
  return { ...base, type: 'A', data: record.address };
}

/**
 * A DNS server on UDP (127.0.0.1) holding a zone the test writes: what a seller's DNS host
 * would publish, seen through a recursive resolver that can misbehave. It answers like one:
 * names match case-insensitively but come back in the case they were written, a CNAME chain is
 * followed for other types and returned with the final records, an unknown name is NXDOMAIN
 * and a known name without the asked type is an empty answer.
 */
export async function startFakeDns(port = 0): Promise<FakeDns> {
  let zone = new Map<string, FakeDnsRecord[]>();
  let frozen: Map<string, FakeDnsRecord[]> | null = null;
  let behaviour: FakeDnsBehaviour = { kind: 'ok' };
  const queries: { name: string; type: string }[] = [];
  const socket = createSocket('udp4');

  function resolve(
    records: Map<string, FakeDnsRecord[]>,
    question: dnsPacket.Question,
  ): { rcode: 'NOERROR' | 'NXDOMAIN'; answers: dnsPacket.Answer[] } {
    const answers: dnsPacket.Answer[] = [];
    let name = question.name;
    for (let hop = 0; hop < MAX_CHAIN; hop += 1) {
      const here = records.get(key(name));
      if (!here) return { rcode: answers.length ? 'NOERROR' : 'NXDOMAIN', answers };
      const matching = here.filter((record) => record.type === question.type);
      if (matching.length)
        return { rcode: 'NOERROR', answers: [...answers, ...matching.map(answerOf)] };
      const alias = here.find((record) => record.type === 'CNAME');
      if (!alias || alias.type !== 'CNAME') return { rcode: 'NOERROR', answers };
      answers.push(answerOf(alias));
      name = alias.target;
    }
    return { rcode: 'NOERROR', answers };
  }

  function reply(query: dnsPacket.Packet, remote: RemoteInfo) {
    const question = query.questions?.[0];
    if (!question) return;
    queries.push({ name: question.name, type: question.type });
    if (behaviour.kind === 'timeout') return;
    const flags = dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE;
    const { rcode, answers } =
      behaviour.kind === 'servfail'
        ? { rcode: 'SERVFAIL' as const, answers: [] }
        : resolve(frozen ?? zone, question);
    const response = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: flags | dnsPacket.AUTHORITATIVE_ANSWER | RCODE[rcode],
      questions: [question],
      answers,
    });
    socket.send(response, remote.port, remote.address);
  }

  socket.on('message', (message, remote) => {
    try {
      reply(dnsPacket.decode(message), remote);
    } catch {
      // Not a DNS query: a real server drops it too.
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve());
  });
  const bound = (socket.address() as AddressInfo).port;

  return {
    server: `127.0.0.1:${bound}`,
    port: bound,
    queries,
    set(name, records) {
      zone = new Map(zone).set(key(name), records);
    },
    clear(name) {
      zone = new Map(zone);
      zone.delete(key(name));
    },
    behave(next) {
      behaviour = next;
      frozen = next.kind === 'stale' ? zone : null;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

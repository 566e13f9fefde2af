import type { IncomingMessage } from 'node:http';
import { loadConfig } from '@lockdrop/config';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/config.js';
import { clientOf } from '../src/http/client.js';

const trustProxy = (value: string) => loadConfig(configSchema, { TRUST_PROXY: value }).TRUST_PROXY;

/** A request as the gateway's socket sees it: from a peer, with forwarded headers. */
const request = (peer: string, headers: Record<string, string>) =>
  ({
    headers,
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
  }) as unknown as IncomingMessage;

describe('TRUST_PROXY', () => {
  it('refuses true, which would let any client name its own address', () => {
    expect(() => trustProxy('true')).toThrow(/TRUST_PROXY.*number of proxies/s);
  });

  it('takes a hop count, and then only that many hops of X-Forwarded-For count', () => {
    expect(trustProxy('1')).toBe(1);
    const client = clientOf(trustProxy('1'));
    // The client wrote the left part itself; the ingress appended what it saw (203.0.113.9).
    const spoofed = request('10.0.0.2', {
      'x-forwarded-for': '198.51.100.7, 203.0.113.9',
      'x-forwarded-proto': 'https',
    });
    expect(client(spoofed)).toEqual({ ip: '203.0.113.9', protocol: 'https' });
    expect(clientOf(trustProxy('2'))(spoofed).ip).toBe('198.51.100.7');
  });

  it('takes the proxies’ addresses, and a peer outside them is the client whatever it forwards', () => {
    const client = clientOf(trustProxy('10.0.0.0/8, loopback'));
    const headers = { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' };
    expect(client(request('10.1.2.3', headers))).toEqual({
      ip: '198.51.100.7',
      protocol: 'https',
    });
    expect(client(request('192.0.2.50', headers))).toEqual({ ip: '192.0.2.50', protocol: 'http' });
    expect(() => trustProxy('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
  });

  it('trusts nobody by default', () => {
    expect(trustProxy('false')).toBe(false);
    const headers = { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' };
    expect(clientOf(false)(request('127.0.0.1', headers))).toEqual({
      ip: '127.0.0.1',
      protocol: 'http',
    });
  });
});

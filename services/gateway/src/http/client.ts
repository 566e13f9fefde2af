import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Who sent a request, as Fastify's `request.ip` and `request.protocol` would say. */
export interface Client {
  ip: string;
  protocol: 'http' | 'https';
}

/**
 * The proxies in front of the gateway whose X-Forwarded-* headers count: none, the nearest `n`
 * hops, or those at these addresses (CIDRs or proxy-addr's names such as `loopback`). Never
 * "every hop": then any client could name its own address in X-Forwarded-For.
 */
export type TrustedProxies = false | number | string[];

/** The same rule as Fastify's `trustProxy` option, for `@fastify/proxy-addr`. */
export function trustFunction(trusted: TrustedProxies): (address: string, hop: number) => boolean {
  if (trusted === false) return () => false;
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return proxyAddr.compile(trusted);
}

/**
 * The client of a raw request, for the answers given before Fastify sees it and the routes
 * that must agree with them (the same visitor cookie, the same rate-limit key). The scheme is
 * taken from X-Forwarded-Proto only when the peer itself is a trusted proxy.
 */
export function clientOf(trusted: TrustedProxies): (request: IncomingMessage) => Client {
  const trust = trustFunction(trusted);
  return (request) => {
    const forwardedProto = request.headers['x-forwarded-proto'];
    const peerTrusted = trust(request.socket.remoteAddress ?? '', 0);
    const protocol =
      peerTrusted && typeof forwardedProto === 'string' && forwardedProto !== ''
        ? forwardedProto.slice(forwardedProto.lastIndexOf(',') + 1).trim()
        : 'encrypted' in request.socket && request.socket.encrypted
          ? 'https'
          : 'http';
    return {
      ip: proxyAddr(request, trust),
      protocol: protocol === 'https' ? 'https' : 'http',
    };
  };
}

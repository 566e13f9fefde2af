import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Who sent a request, as Fastify's `request.ip` and `request.protocol` would say. */
export interface Client {
  ip: string;
  protocol: 'http' | 'https';
}

/**
 * The client of a raw request, for the answers given before Fastify sees it and the routes
 * that must agree with them (the same visitor cookie, the same rate-limit key). `trustProxy`
 * as the gateway configures Fastify: all or nothing.
 */
export function clientOf(trustProxy: boolean): (request: IncomingMessage) => Client {
  const trusted = () => trustProxy;
  return (request) => {
    const forwardedProto = request.headers['x-forwarded-proto'];
    const protocol =
      trustProxy && typeof forwardedProto === 'string' && forwardedProto !== ''
        ? forwardedProto.slice(forwardedProto.lastIndexOf(',') + 1).trim()
        : 'encrypted' in request.socket && request.socket.encrypted
          ? 'https'
          : 'http';
    return {
      ip: proxyAddr(request, trusted),
      protocol: protocol === 'https' ? 'https' : 'http',
    };
  };
}

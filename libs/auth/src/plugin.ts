import cookie from '@fastify/cookie';
import { errors } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthUser, TokenVerifier } from './verifier.js';

/** httpOnly cookie set by identity; browsers send it, API clients may use a Bearer header instead. */
export const ACCESS_COOKIE = 'ld_access';

export interface AuthPluginOptions {
  verifier: TokenVerifier;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` (required) or `app.identify` (optional). */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid access token. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** preHandler: sets `request.user` when a valid token is present, otherwise leaves it null. */
    identify(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

function tokenFrom(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return request.cookies[ACCESS_COOKIE];
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app, { verifier }) => {
    if (!app.hasDecorator('parseCookie')) await app.register(cookie);
    app.decorateRequest('user', null);

    const resolve = async (request: FastifyRequest): Promise<AuthUser | null> => {
      const token = tokenFrom(request);
      if (!token) return null;
      try {
        return await verifier.verify(token);
      } catch (error) {
        request.log.debug({ err: error }, 'access token rejected');
        throw errors.unauthorized('Invalid or expired session');
      }
    };

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const user = await resolve(request);
      if (!user) throw errors.unauthorized('Auth session missing!');
      request.user = user;
    });
    app.decorate('identify', async (request: FastifyRequest) => {
      request.user = await resolve(request).catch(() => null);
    });
  },
  { name: 'lockdrop-auth' },
);

import cookie from '@fastify/cookie';
import { AppError, errors } from '@lockdrop/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiKeyScope, StoreRight } from '@lockdrop/contracts';
import { assertActorMay } from './store-rights.js';
import type { AuthApiKey, AuthUser, TokenVerifier } from './verifier.js';

/** httpOnly cookie set by identity; browsers send it, API clients may use a Bearer header instead. */
export const ACCESS_COOKIE = 'ld_access';

export interface AuthPluginOptions {
  verifier: TokenVerifier;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The store right a member acting for the store needs here (issue 28). Without it the route
     * refuses every acting token (403 `not_allowed_for_role`): default deny, so a route nobody
     * annotated stays the owner's. The one place a route says what a role may do.
     */
    storeRight?: StoreRight;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate` (required) or `app.identify` (optional). */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid access token. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** preHandler: sets `request.user` when a valid token is present, otherwise leaves it null. */
    identify(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * preHandler of `/api/v1` routes: 401 unless the request carries a token the gateway minted
     * for an API key (a session's token never opens these), 403 without `scope`.
     */
    requireApiScope(
      scope: ApiKeyScope,
    ): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

function tokenFrom(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return request.cookies[ACCESS_COOKIE];
}

const apiKeyRequired = () =>
  new AppError('api_key_required', 401, 'The API takes an API key: Authorization: Bearer ld_…');

/** The one scope rule: a key may do only what its scopes name. */
export function assertScope(apiKey: AuthApiKey, scope: ApiKeyScope): void {
  if (!apiKey.scopes.includes(scope))
    throw new AppError('insufficient_scope', 403, `This API key lacks the ${scope} scope`, {
      requiredScope: scope,
    });
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

    // Dashboard routes: a signed-in session only. A token minted for an API key is refused here,
    // so a leaked key never reaches the session routes (and what they can change: plan, payouts).
    // A member acting for a store passes only where the route declares a right their role has.
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const user = await resolve(request);
      if (!user || user.apiKey) throw errors.unauthorized('Auth session missing!');
      if (user.actor) assertActorMay(user.actor.role, request.routeOptions.config.storeRight);
      request.user = user;
    });
    // Optional sign-in (public pages that show more to their owner): an actor on a route that
    // grants their role nothing is treated as a visitor, never as the store.
    app.decorate('identify', async (request: FastifyRequest) => {
      const user = await resolve(request).catch(() => null);
      if (user?.apiKey) request.user = null;
      else if (user?.actor) {
        const right = request.routeOptions.config.storeRight;
        let allowed = true;
        try {
          assertActorMay(user.actor.role, right);
        } catch {
          allowed = false;
        }
        request.user = allowed ? user : null;
      } else request.user = user;
    });
    app.decorate('requireApiScope', (scope: ApiKeyScope) => async (request: FastifyRequest) => {
      const user = await resolve(request);
      if (!user?.apiKey) throw apiKeyRequired();
      assertScope(user.apiKey, scope);
      request.user = user;
    });
  },
  { name: 'lockdrop-auth' },
);

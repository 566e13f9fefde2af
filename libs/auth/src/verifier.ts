import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import {
  apiKeyModeSchema,
  apiKeyScopeSchema,
  apiVersionSchema,
  planIdSchema,
  storeRoleSchema,
  type ApiKeyMode,
  type ApiKeyScope,
  type ApiVersion,
  type PlanId,
  type StoreRole,
} from '@lockdrop/contracts';
import { z } from 'zod';

export const ACCESS_TOKEN_ISSUER = 'lockdrop-identity';
export const ACCESS_TOKEN_AUDIENCE = 'lockdrop';
/** Spec §9: the key set is cached for 10 minutes. */
const JWKS_CACHE_MS = 10 * 60 * 1000;

/** The caller as every service sees it, taken only from a verified access token. */
export interface AuthUser {
  id: string;
  email: string;
  emailVerified: boolean;
  plan: PlanId;
  /**
   * When the person last proved who they are (password, second factor, Google or an e-mailed
   * code), in seconds since the epoch: identity keeps it across refreshes, so a stolen session
   * cannot make it recent. Absent from tokens minted before it existed.
   */
  authTime?: number;
  /**
   * Set when the token was minted for an API key (the gateway's `/api/v1` door): the key, its
   * scopes and mode. Null for a signed-in session. The two never open each other's routes.
   */
  apiKey: AuthApiKey | null;
  /**
   * Set when a store member acts for the store `id` names (issue 28, RFC 8693 `act`): the member
   * and their role. Null for the account's own session. Such a token opens only routes that
   * declare a store right the role has (the auth plugin's default deny).
   */
  actor: AuthActor | null;
}

export interface AuthActor {
  id: string;
  role: StoreRole;
}
const actorClaimSchema = z.object({ sub: z.uuid(), role: storeRoleSchema });

const apiKeyClaimSchema = z.object({
  id: z.uuid(),
  scopes: z.array(apiKeyScopeSchema),
  mode: apiKeyModeSchema,
  version: apiVersionSchema,
});
export interface AuthApiKey {
  id: string;
  scopes: ApiKeyScope[];
  mode: ApiKeyMode;
  version: ApiVersion;
}

export interface TokenVerifier {
  verify(token: string): Promise<AuthUser>;
}

/**
 * Verifies EdDSA access JWTs. Pass `jwksUrl` (identity's `/.well-known/jwks.json`, fetched and
 * cached; an unknown `kid` triggers a refetch, so key rotation needs no restart) or a local
 * key set (tests).
 */
export function createTokenVerifier(
  source: { jwksUrl: string } | { jwks: JSONWebKeySet },
): TokenVerifier {
  const keys: JWTVerifyGetKey =
    'jwksUrl' in source
      ? createRemoteJWKSet(new URL(source.jwksUrl), {
          cacheMaxAge: JWKS_CACHE_MS,
          cooldownDuration: 30_000,
        })
      : createLocalJWKSet(source.jwks);
  return {
    async verify(token) {
      const { payload } = await jwtVerify(token, keys, {
        algorithms: ['EdDSA'],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'exp', 'email'],
      });
      const plan = planIdSchema.safeParse(payload.plan);
      // A malformed key claim must not fall back to "a session": the token is refused.
      const apiKey =
        payload.api_key === undefined ? null : apiKeyClaimSchema.parse(payload.api_key);
      // Same: a malformed actor claim refuses the token rather than letting it pass as the store's.
      const act = payload.act === undefined ? null : actorClaimSchema.parse(payload.act);
      if (act && apiKey) throw new Error('a token is either an API key or an actor, not both');
      return {
        id: payload.sub!,
        email: String(payload.email),
        emailVerified: payload.email_verified === true,
        // Spec §3: any plan value we do not know is treated as free.
        plan: plan.success ? plan.data : 'free',
        ...(typeof payload.auth_time === 'number' ? { authTime: payload.auth_time } : {}),
        apiKey,
        actor: act ? { id: act.sub, role: act.role } : null,
      };
    },
  };
}

import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@lockdrop/auth';
import {
  storeRoleSchema,
  type ApiKeyMode,
  type ApiKeyScope,
  type ApiVersion,
  type PlanId,
  type StoreRole,
} from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import {
  SignJWT,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { z } from 'zod';
import { loadOrCreateSigningKeys } from '../db/signing-keys.repo.js';

/** ~15 minutes: short enough that a revoked session stops working everywhere soon. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

const privateKeySchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  d: z.string().min(1),
  x: z.string().min(1),
  kid: z.string().min(1),
});
const privateKeySetSchema = z.object({ keys: z.array(privateKeySchema).min(1) });

export interface AccessClaims {
  userId: string;
  sessionId: string;
  email: string;
  emailVerified: boolean;
  plan: PlanId;
  /** `auth_time`: the session's last proof of identity, kept across refreshes. */
  authTime: Date;
  /**
   * A member acting for a store (issue 28): `userId` (sub) is then the store, its owner's e-mail
   * and plan, and `act` names the member and role (RFC 8693), so every ownership check in every
   * service keeps comparing the store's id while libs/auth limits what the role may do.
   */
  actor?: { id: string; role: StoreRole };
}

/**
 * What an API key's internal access token carries besides the seller: the key, its scopes, its
 * mode and its version. Same kind of JWT as a session's (same keys, issuer, audience), so every
 * service verifies it as it does today; `libs/auth` tells the two apart by the `api_key` claim.
 */
export interface ApiKeyClaims {
  userId: string;
  email: string;
  emailVerified: boolean;
  plan: PlanId;
  apiKey: { id: string; scopes: ApiKeyScope[]; mode: ApiKeyMode; version: ApiVersion };
}

/** Longer than any gateway caches an introspection answer, short enough to age out soon. */
export const API_KEY_ACCESS_TOKEN_TTL_SECONDS = 5 * 60;

export interface VerifiedAccessToken {
  userId: string;
  sessionId: string;
  expiresAt: Date;
  /** The member acting for the store `userId` names, when the token is an acting one. */
  actor: { id: string; role: StoreRole } | null;
}
const actClaimSchema = z.object({ sub: z.uuid(), role: storeRoleSchema });

export interface KeyRing {
  /** Public keys of every key in the ring: what `/.well-known/jwks.json` serves. */
  readonly jwks: JSONWebKeySet;
  sign(claims: AccessClaims): Promise<{ token: string; expiresAt: Date }>;
  signApiKey(claims: ApiKeyClaims): Promise<{ token: string; expiresAt: Date }>;
  verify(token: string): Promise<VerifiedAccessToken>;
}

export class SigningKeysError extends Error {
  override name = 'SigningKeysError';
}

/** Parses `JWT_PRIVATE_KEYS`; the last key is the newest and signs. */
export function parsePrivateKeySet(json: string): JWK[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new SigningKeysError('must be JSON');
  }
  const result = privateKeySetSchema.safeParse(parsed);
  if (!result.success) {
    throw new SigningKeysError(
      'must be {"keys":[…]} of Ed25519 private JWKs (kty OKP, crv Ed25519, d, x, kid); the last one signs',
    );
  }
  return result.data.keys;
}

export async function generateSigningKey(): Promise<JWK & { kid: string }> {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID() };
}

/**
 * The configured keys, or — when none are configured — keys generated once and kept in the
 * database, so restarting the service (or running several replicas) does not invalidate every
 * access token and log everybody out.
 */
export async function loadKeyRing({
  configured,
  pool,
}: {
  configured?: string;
  pool: Pool;
}): Promise<KeyRing> {
  const privateJwks = configured
    ? parsePrivateKeySet(configured)
    : await loadOrCreateSigningKeys(pool, generateSigningKey);
  return createKeyRing(privateJwks);
}

export async function createKeyRing(privateJwks: JWK[]): Promise<KeyRing> {
  const publicKeys: JWK[] = privateJwks.map(({ kty, crv, x, kid }) => ({
    kty,
    crv,
    x,
    kid,
    alg: 'EdDSA',
    use: 'sig',
  }));
  const jwks: JSONWebKeySet = { keys: publicKeys };
  const newest = privateJwks.at(-1)!;
  const signingKey = (await importJWK({ ...newest, alg: 'EdDSA' }, 'EdDSA')) as CryptoKey;
  const verifyKeys = createLocalJWKSet(jwks);
  const signToken = async (claims: Record<string, unknown>, subject: string, ttl: number) => {
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + ttl;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: newest.kid!, typ: 'JWT' })
      .setSubject(subject)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(signingKey);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  };

  return {
    jwks,
    sign: (claims) =>
      signToken(
        {
          email: claims.email,
          email_verified: claims.emailVerified,
          plan: claims.plan,
          sid: claims.sessionId,
          auth_time: Math.floor(claims.authTime.getTime() / 1000),
          ...(claims.actor ? { act: { sub: claims.actor.id, role: claims.actor.role } } : {}),
        },
        claims.userId,
        ACCESS_TOKEN_TTL_SECONDS,
      ),
    signApiKey: (claims) =>
      signToken(
        {
          email: claims.email,
          email_verified: claims.emailVerified,
          plan: claims.plan,
          api_key: claims.apiKey,
        },
        claims.userId,
        API_KEY_ACCESS_TOKEN_TTL_SECONDS,
      ),
    async verify(token) {
      const { payload } = await jwtVerify(token, verifyKeys, {
        algorithms: ['EdDSA'],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'exp', 'sid'],
      });
      // An API key's token never stands for a session (identity's own session routes).
      if (payload.api_key !== undefined) throw new Error('an API key token is not a session');
      const act = payload.act === undefined ? null : actClaimSchema.parse(payload.act);
      return {
        userId: payload.sub!,
        sessionId: String(payload.sid),
        expiresAt: new Date(payload.exp! * 1000),
        actor: act ? { id: act.sub, role: act.role } : null,
      };
    },
  };
}

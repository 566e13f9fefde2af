import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@lockdrop/auth';
import {
  LATEST_API_VERSION,
  type ApiKeyMode,
  type ApiKeyScope,
  type PlanId,
  type StoreRole,
} from '@lockdrop/contracts';
import { SignJWT, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';

/** A signed-in account as a service under test sees it: the claims identity puts in its tokens. */
export interface TestAccount {
  id: string;
  email: string;
  plan: PlanId;
  token: string;
  /** The `authorization` header value. */
  authorization: string;
}

export interface TestIssuer {
  /** The public keys, for a verifier built in-process. */
  jwks: JSONWebKeySet;
  /** Where the keys are served over HTTP, as identity serves them (`JWKS_URL`). */
  jwksUrl: string;
  /** Signs an access token as identity would; `expiresIn` like `15m`. */
  account(options?: {
    id?: string;
    email?: string;
    plan?: PlanId;
    emailVerified?: boolean;
    expiresIn?: string;
    /** The `auth_time` claim (when the person last proved who they are); default now, `null` omits it. */
    authTime?: Date | null;
    /**
     * Mints the token the gateway's `/api/v1` door gets from identity for an API key with these
     * scopes and mode (the `api_key` claim), instead of a session's.
     */
    apiKey?: { scopes: ApiKeyScope[]; mode?: ApiKeyMode; id?: string };
    /** A member acting for the store `id` names (identity's RFC 8693 `act` claim, issue 28). */
    actor?: { id: string; role: StoreRole };
  }): Promise<TestAccount>;
  close(): Promise<void>;
}

/**
 * Identity's part in a service's tests: a signing key, its JWKS served over real HTTP, and
 * access tokens with identity's issuer, audience and claims — so the service verifies them
 * exactly as it verifies identity's.
 */
export async function startTestIssuer(): Promise<TestIssuer> {
  const keys = await generateKeyPair('EdDSA', { extractable: true });
  const jwks = {
    keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'test', alg: 'EdDSA', use: 'sig' }],
  };
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    jwks,
    jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    async account({
      id = randomUUID(),
      email = `${id.slice(0, 8)}@example.com`,
      plan = 'free',
      emailVerified = true,
      expiresIn = '1h',
      authTime = new Date(),
      apiKey,
      actor,
    } = {}) {
      const token = await new SignJWT({
        email,
        email_verified: emailVerified,
        plan,
        ...(actor ? { act: { sub: actor.id, role: actor.role } } : {}),
        ...(apiKey
          ? {
              api_key: {
                id: apiKey.id ?? randomUUID(),
                scopes: apiKey.scopes,
                mode: apiKey.mode ?? 'test',
                version: LATEST_API_VERSION,
              },
            }
          : authTime
            ? { auth_time: Math.floor(authTime.getTime() / 1000) }
            : {}),
      })
        .setProtectedHeader({ alg: 'EdDSA', kid: 'test' })
        .setSubject(id)
        .setIssuer(ACCESS_TOKEN_ISSUER)
        .setAudience(ACCESS_TOKEN_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(keys.privateKey);
      return { id, email, plan, token, authorization: `Bearer ${token}` };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

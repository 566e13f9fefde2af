import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, type HttpServer } from '@lockdrop/http';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  authPlugin,
  createTokenVerifier,
} from '../src/index.js';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let identityKey: KeyPair;
let strangerKey: KeyPair;
let jwksServer: http.Server;
let jwksFetches = 0;
let app: HttpServer;

async function sign(
  key: KeyPair,
  kid: string,
  overrides: { exp?: number; plan?: string; iss?: string } = {},
) {
  return new SignJWT({
    email: 'ada@example.com',
    email_verified: true,
    plan: overrides.plan ?? 'pro',
  })
    .setProtectedHeader({ alg: 'EdDSA', kid })
    .setSubject('4f3c2a9e-0b7d-4c1e-9a55-2d6f1b8e7c10')
    .setIssuer(overrides.iss ?? ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(overrides.exp ?? Math.floor(Date.now() / 1000) + 900)
    .sign(key.privateKey);
}

beforeAll(async () => {
  identityKey = await generateKeyPair('EdDSA', { extractable: true });
  strangerKey = await generateKeyPair('EdDSA', { extractable: true });
  const publicJwk: JWK = {
    ...(await exportJWK(identityKey.publicKey)),
    kid: 'k1',
    alg: 'EdDSA',
    use: 'sig',
  };
  // A real HTTP JWKS endpoint, as identity serves it.
  jwksServer = http.createServer((_request, response) => {
    jwksFetches += 1;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;

  app = await createHttpServer({ name: 'catalog-probe', logLevel: 'silent' });
  await app.register(authPlugin, {
    verifier: createTokenVerifier({ jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json` }),
  });
  app.get('/me', { preHandler: app.authenticate }, async (request) => request.user);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  jwksServer.close();
});

const me = (headers: Record<string, string>) => app.inject({ url: '/me', headers });

describe('access token verification through the JWKS', () => {
  it('gives the route the user from a valid token (Bearer or cookie)', async () => {
    const token = await sign(identityKey, 'k1');
    const viaHeader = await me({ authorization: `Bearer ${token}` });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.json()).toEqual({
      id: '4f3c2a9e-0b7d-4c1e-9a55-2d6f1b8e7c10',
      email: 'ada@example.com',
      emailVerified: true,
      plan: 'pro',
      // A signed-in session, not a token minted for an API key.
      apiKey: null,
      // The account's own session, not a member acting for a store.
      actor: null,
    });
    expect((await me({ cookie: `ld_access=${token}` })).statusCode).toBe(200);
  });

  it('caches the key set instead of fetching it per request', async () => {
    const before = jwksFetches;
    const token = await sign(identityKey, 'k1');
    for (let i = 0; i < 5; i += 1) await me({ authorization: `Bearer ${token}` });
    expect(jwksFetches - before).toBe(0);
  });

  it('treats an unknown plan claim as free', async () => {
    const response = await me({
      authorization: `Bearer ${await sign(identityKey, 'k1', { plan: 'platinum' })}`,
    });
    expect(response.json().plan).toBe('free');
  });

  it('rejects a missing token with 401 in the error shape', async () => {
    const response = await me({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: { code: 'unauthorized', message: 'Auth session missing!' },
    });
  });

  it('rejects a tampered token', async () => {
    const token = await sign(identityKey, 'k1');
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, plan: 'business' })).toString(
      'base64url',
    );
    expect(
      (await me({ authorization: `Bearer ${header}.${forged}.${signature}` })).statusCode,
    ).toBe(401);
  });

  it('rejects an expired token', async () => {
    const token = await sign(identityKey, 'k1', { exp: Math.floor(Date.now() / 1000) - 60 });
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('rejects a token signed by a key identity never published', async () => {
    expect(
      (await me({ authorization: `Bearer ${await sign(strangerKey, 'k1')}` })).statusCode,
    ).toBe(401);
    expect(
      (await me({ authorization: `Bearer ${await sign(strangerKey, 'other')}` })).statusCode,
    ).toBe(401);
  });

  it('rejects a token from another issuer', async () => {
    const token = await sign(identityKey, 'k1', { iss: 'someone-else' });
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('rejects an HMAC token (algorithm confusion)', async () => {
    const hmac = await new SignJWT({ email: 'ada@example.com' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setSubject('x')
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-of-sufficient-length!!'));
    expect((await me({ authorization: `Bearer ${hmac}` })).statusCode).toBe(401);
  });
});

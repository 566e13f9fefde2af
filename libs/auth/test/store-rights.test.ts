import { createHttpServer, type HttpServer } from '@lockdrop/http';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  STORE_ROLE_RIGHTS,
  authPlugin,
  createTokenVerifier,
  roleHasRight,
} from '../src/index.js';

const STORE = '4f3c2a9e-0b7d-4c1e-9a55-2d6f1b8e7c10';
const MEMBER = '9a1b2c3d-0b7d-4c1e-9a55-2d6f1b8e7c11';
type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let key: KeyPair;
let app: HttpServer;

async function token(claims: Record<string, unknown> = {}) {
  return new SignJWT({ email: 'owner@example.com', email_verified: true, plan: 'pro', ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
    .setSubject(STORE)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key.privateKey);
}
const acting = (role: string) => token({ act: { sub: MEMBER, role } });

beforeAll(async () => {
  key = await generateKeyPair('EdDSA', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  app = await createHttpServer({ name: 'rights-probe', logLevel: 'silent' });
  await app.register(authPlugin, { verifier: createTokenVerifier({ jwks: { keys: [jwk] } }) });
  const who = async (request: { user: unknown }) => ({ user: request.user });
  // A route nobody annotated: the owner's only.
  app.get('/billing', { preHandler: app.authenticate }, who);
  app.post(
    '/products',
    { preHandler: app.authenticate, config: { storeRight: 'products:write' } },
    who,
  );
  app.post(
    '/refunds',
    { preHandler: app.authenticate, config: { storeRight: 'refunds:write' } },
    who,
  );
  app.get('/sales', { preHandler: app.authenticate, config: { storeRight: 'sales:read' } }, who);
  app.get('/public', { preHandler: app.identify }, who);
  await app.ready();
});
afterAll(() => app.close());

const call = async (method: 'GET' | 'POST', url: string, bearer: string) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` } });

describe('default deny for members acting for a store', () => {
  it('refuses an acting token on a route that declares no right, whatever the role', async () => {
    for (const role of ['admin', 'editor', 'support', 'accountant', 'owner']) {
      const response = await call('GET', '/billing', await acting(role));
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('not_allowed_for_role');
    }
    // The owner's own token (no actor) still opens it.
    expect((await call('GET', '/billing', await token())).statusCode).toBe(200);
  });

  it('allows a declared right only to roles that have it', async () => {
    const editor = await acting('editor');
    const created = await call('POST', '/products', editor);
    expect(created.statusCode).toBe(200);
    // The route sees the store as the user (every ownership check keeps working) and the actor.
    expect(created.json().user).toMatchObject({ id: STORE, actor: { id: MEMBER, role: 'editor' } });
    expect((await call('POST', '/refunds', editor)).statusCode).toBe(403);
    expect((await call('GET', '/sales', editor)).statusCode).toBe(403);

    const accountant = await acting('accountant');
    expect((await call('GET', '/sales', accountant)).statusCode).toBe(200);
    const refused = await call('POST', '/products', accountant);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'not_allowed_for_role',
      details: { role: 'accountant', requiredRight: 'products:write' },
    });
    expect((await call('POST', '/refunds', accountant)).statusCode).toBe(403);

    const support = await acting('support');
    expect((await call('POST', '/refunds', support)).statusCode).toBe(200);
    expect((await call('POST', '/products', support)).statusCode).toBe(403);
  });

  it('treats an actor on an optional-sign-in route that grants nothing as a visitor', async () => {
    const response = await call('GET', '/public', await acting('admin'));
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toBeNull();
    expect((await call('GET', '/public', await token())).json().user).toMatchObject({ id: STORE });
  });

  it('refuses a token whose actor claim is malformed instead of treating it as the store', async () => {
    const bad = await token({ act: { sub: MEMBER, role: 'superuser' } });
    expect((await call('POST', '/products', bad)).statusCode).toBe(401);
    const both = await token({
      act: { sub: MEMBER, role: 'admin' },
      api_key: {
        id: '11111111-1111-4111-8111-111111111111',
        scopes: [],
        mode: 'live',
        version: '2026-11-26',
      },
    });
    expect((await call('POST', '/products', both)).statusCode).toBe(401);
  });
});

describe('the role → rights table', () => {
  it('gives each role what issue 28 says and nothing owner-only', () => {
    expect(STORE_ROLE_RIGHTS.editor).toEqual([
      'products:read',
      'products:write',
      'files:read',
      'files:write',
      'discounts:read',
      'discounts:write',
      'buyer-updates:write',
    ]);
    expect(STORE_ROLE_RIGHTS.support).toEqual(['sales:read', 'refunds:write', 'buyers:read']);
    expect(STORE_ROLE_RIGHTS.accountant).toEqual([
      'sales:read',
      'payouts:read',
      'analytics:read',
      'exports:read',
    ]);
    // Read-only: an accountant writes nothing.
    expect(STORE_ROLE_RIGHTS.accountant.some((right) => right.endsWith(':write'))).toBe(false);
    // Admin: every right there is.
    for (const role of ['editor', 'support', 'accountant'] as const)
      for (const right of STORE_ROLE_RIGHTS[role]) expect(roleHasRight('admin', right)).toBe(true);
    expect(roleHasRight('editor', 'refunds:write')).toBe(false);
    expect(roleHasRight('support', 'payouts:read')).toBe(false);
  });

  it("gives admin (and owner) what speaks for the store but the owner's own: brand, domain, webhooks, API keys", () => {
    const storeWide = [
      'brand:manage',
      'domain:manage',
      'webhooks:manage',
      'api-keys:manage',
    ] as const;
    const holders = (right: (typeof storeWide)[number] | 'store:owner') =>
      (['owner', 'admin', 'editor', 'support', 'accountant'] as const).filter((role) =>
        roleHasRight(role, right),
      );
    for (const right of storeWide)
      expect([right, holders(right)]).toEqual([right, ['owner', 'admin']]);
    // Ownership, billing, where payouts go: the owner's alone.
    expect(holders('store:owner')).toEqual(['owner']);
  });
});

import { buildApp as buildCatalog } from '@lockdrop/catalog/src/app.js';
import { configSchema as catalogConfig } from '@lockdrop/catalog/src/config.js';
import { loadConfig } from '@lockdrop/config';
import type { HttpServer } from '@lockdrop/http';
import { testEnv } from '@lockdrop/testing';
import { SignJWT, decodeJwt, decodeProtectedHeader, importJWK, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@lockdrop/identity/src/app.js';
import { configSchema } from '@lockdrop/identity/src/config.js';
import { generateSigningKey } from '@lockdrop/identity/src/keys/key-ring.js';
import {
  Browser,
  latestMail,
  makeSignUp,
  startIdentity,
  type TestIdentity,
} from '@lockdrop/identity/test/support.js';

let identity: TestIdentity;
let identityUrl: string;
let catalog: HttpServer;
let accessToken: string;

beforeAll(async () => {
  identity = await startIdentity();
  identityUrl = await identity.app.listen({ port: 0, host: '127.0.0.1' });
  // The real catalog service, verifying with libs/auth against identity's published key set.
  catalog = await buildCatalog(
    loadConfig(catalogConfig, {
      DATABASE_URL: identity.database.url,
      NATS_URL: testEnv.natsUrl,
      BUS_NAMESPACE: identity.namespace,
      LOG_LEVEL: 'silent',
      JWKS_URL: `${identityUrl}/.well-known/jwks.json`,
    }),
  );
  catalog.get('/probe/me', { preHandler: catalog.authenticate }, async (request) => request.user);
  const browser = new Browser(identity.app);
  await browser.post('/api/auth/sign-up', makeSignUp());
  accessToken = browser.cookie('ld_access')!;
});
afterAll(async () => {
  await catalog?.close();
  await identity?.close();
});

const askCatalog = (token: string) =>
  catalog.inject({ url: '/probe/me', headers: { authorization: `Bearer ${token}` } });

async function signWith(jwk: object, claims: Record<string, unknown>, header: { kid: string }) {
  const key = (await importJWK({ ...jwk, alg: 'EdDSA' }, 'EdDSA')) as CryptoKey;
  return new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', ...header }).sign(key);
}

describe('access tokens', () => {
  it('are EdDSA JWTs with kid and the claims every service reads, valid ~15 minutes', () => {
    const header = decodeProtectedHeader(accessToken);
    expect(header).toMatchObject({ alg: 'EdDSA', kid: identity.signingKeys[0]!.kid });
    const claims = decodeJwt(accessToken);
    expect(claims).toMatchObject({
      iss: 'lockdrop-identity',
      aud: 'lockdrop',
      email_verified: false,
      plan: 'free',
    });
    expect(claims.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.exp! - claims.iat!).toBe(900);
  });

  it('are accepted by another service using libs/auth and the published JWKS', async () => {
    const response = await askCatalog(accessToken);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      emailVerified: false,
      plan: 'free',
      id: decodeJwt(accessToken).sub,
    });
  });

  it('are rejected by that service when tampered with', async () => {
    const [header, payload, signature] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, plan: 'business' })).toString(
      'base64url',
    );
    const response = await askCatalog(`${header}.${forged}.${signature}`);
    expect(response.statusCode).toBe(401);
  });

  it('are rejected when expired', async () => {
    const claims = decodeJwt(accessToken);
    const now = Math.floor(Date.now() / 1000);
    const expired = await signWith(
      identity.signingKeys[0]!,
      { ...claims, iat: now - 3600, exp: now - 60 },
      { kid: identity.signingKeys[0]!.kid },
    );
    expect((await askCatalog(expired)).statusCode).toBe(401);
  });

  it('are rejected when signed by a key identity does not publish, even under its kid', async () => {
    const stranger = await generateSigningKey();
    const forged = await signWith(stranger, decodeJwt(accessToken), {
      kid: identity.signingKeys[0]!.kid,
    });
    expect((await askCatalog(forged)).statusCode).toBe(401);
    const unknownKid = await signWith(stranger, decodeJwt(accessToken), { kid: stranger.kid });
    expect((await askCatalog(unknownKid)).statusCode).toBe(401);
  });
});

describe('JWKS and key rotation', () => {
  it('publishes only public keys', async () => {
    const response = await fetch(`${identityUrl}/.well-known/jwks.json`);
    const jwks = (await response.json()) as { keys: unknown[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: identity.signingKeys[0]!.x,
      kid: identity.signingKeys[0]!.kid,
      alg: 'EdDSA',
      use: 'sig',
    });
  });

  it('signs with the newest key and keeps accepting tokens of the older one', async () => {
    const newest = await generateSigningKey();
    const rotated = await buildApp(
      loadConfig(configSchema, {
        ...identity.env,
        JWT_PRIVATE_KEYS: JSON.stringify({ keys: [...identity.signingKeys, newest] }),
      }),
    );
    try {
      const jwks = (await rotated.inject({ url: '/.well-known/jwks.json' })).json();
      expect(jwks.keys.map((key: { kid: string }) => key.kid)).toEqual([
        identity.signingKeys[0]!.kid,
        newest.kid,
      ]);
      const browser = new Browser(rotated);
      await browser.post('/api/auth/sign-up', makeSignUp());
      expect(decodeProtectedHeader(browser.cookie('ld_access')!).kid).toBe(newest.kid);
      // A user signed in before the rotation stays signed in.
      const old = await rotated.inject({
        url: '/api/profile',
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(old.statusCode).toBe(200);
    } finally {
      await rotated.close();
    }
  });

  it('without JWT_PRIVATE_KEYS generates one key and keeps it across restarts', async () => {
    const env = { ...identity.env, JWT_PRIVATE_KEYS: '' };
    const first = await buildApp(loadConfig(configSchema, env));
    const firstKeys = (await first.inject({ url: '/.well-known/jwks.json' })).json();
    await first.close();
    const second = await buildApp(loadConfig(configSchema, env));
    const secondKeys = (await second.inject({ url: '/.well-known/jwks.json' })).json();
    await second.close();
    expect(firstKeys.keys).toHaveLength(1);
    expect(secondKeys).toEqual(firstKeys);
  });

  it('refuses to start in production without JWT_PRIVATE_KEYS, and starts with them', async () => {
    expect(() =>
      loadConfig(configSchema, { ...identity.env, NODE_ENV: 'production', JWT_PRIVATE_KEYS: '' }),
    ).toThrow(/JWT_PRIVATE_KEYS: must be set in production/);
    const keys = JSON.stringify({ keys: [await generateSigningKey()] });
    const config = loadConfig(configSchema, {
      ...identity.env,
      NODE_ENV: 'production',
      JWT_PRIVATE_KEYS: keys,
    });
    expect(config.JWT_PRIVATE_KEYS).toBe(keys);
  });

  it('refuses malformed JWT_PRIVATE_KEYS with one line naming it', () => {
    expect(() =>
      loadConfig(configSchema, { ...identity.env, JWT_PRIVATE_KEYS: '{"keys":[{"kty":"RSA"}]}' }),
    ).toThrow(/^Invalid configuration: JWT_PRIVATE_KEYS: must be \{"keys"/);
    expect(() =>
      loadConfig(configSchema, { ...identity.env, JWT_PRIVATE_KEYS: 'not json' }),
    ).toThrow(/JWT_PRIVATE_KEYS: must be JSON/);
  });
});

describe('/dev/mailbox', () => {
  it('lists sent e-mails newest first as HTML with clickable links and no script', async () => {
    const first = makeSignUp();
    const second = makeSignUp();
    await new Browser(identity.app).post('/api/auth/sign-up', first);
    await latestMail(identity.db, first.email);
    await new Browser(identity.app).post('/api/auth/sign-up', second);
    await latestMail(identity.db, second.email);

    const page = await identity.app.inject({ url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toMatch(
      /<a href="http:\/\/lockdrop\.test\/api\/auth\/verify-email\?token=[\w-]+">/,
    );
    expect(page.body.indexOf(second.email)).toBeLessThan(page.body.indexOf(first.email));
  });

  it('does not exist when SMTP is configured, nor in production', async () => {
    const production = {
      NODE_ENV: 'production',
      JWT_PRIVATE_KEYS: JSON.stringify({ keys: [await generateSigningKey()] }),
    };
    for (const overrides of [{ SMTP_URL: 'smtp://127.0.0.1:2525' }, production]) {
      const app = await buildApp(loadConfig(configSchema, { ...identity.env, ...overrides }));
      try {
        const response = await app.inject({ url: '/dev/mailbox' });
        expect(response.statusCode).toBe(404);
      } finally {
        await app.close();
      }
    }
  });
});

describe('Google sign-in when not configured', () => {
  it('says so with oauth_not_configured', async () => {
    const response = await identity.app.inject({ url: '/api/auth/oauth/google/start' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('oauth_not_configured');
    expect((await identity.app.inject({ url: '/api/auth/oauth/providers' })).json()).toEqual({
      google: false,
    });
  });
});

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, PUBLIC_URL, makeSignUp, startIdentity, type TestIdentity } from './support.js';

const CLIENT_ID = 'lockdrop-web';
const CLIENT_SECRET = 'a-long-client-secret-for-tests-only';

interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

let identity: TestIdentity;
let server: Server;
let issuer: string;
/** Who "signs in at Google" in the next interaction. */
let nextAccount: GoogleAccount;
const accounts = new Map<string, GoogleAccount>();

/**
 * A real OpenID provider (node-oidc-provider) on localhost: discovery, signed ID tokens, PKCE,
 * client authentication. Only its login screen is replaced by code that signs `nextAccount` in.
 */
async function startProvider(): Promise<void> {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_URL}/api/auth/oauth/google/callback`],
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: {
      keys: [{ ...(await exportJWK(privateKey)), kid: 'google-test', alg: 'RS256', use: 'sig' }],
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Like Google: the ID token of the code flow carries the e-mail claims.
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => accounts.get(sub),
    }),
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-signing-key'] },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
      Grant: 600,
      Interaction: 600,
      Session: 600,
    },
  });
  const handle = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      accounts.set(nextAccount.sub, nextAccount);
      const grant = new provider.Grant({
        accountId: nextAccount.sub,
        clientId: details.params.client_id,
      });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: nextAccount.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
}

beforeAll(async () => {
  await startProvider();
  identity = await startIdentity({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    GOOGLE_ISSUER: issuer,
  });
});
afterAll(async () => {
  await identity?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** Follows the provider's redirects with its own cookie jar until it sends the browser back to us. */
async function throughProvider(authorizationUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!, value.join('='));
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`provider answered ${response.status}: ${await response.text()}`);
    url = new URL(location, url).toString();
    if (url.startsWith(PUBLIC_URL)) return url;
  }
  throw new Error('too many redirects');
}

async function signInWithGoogle(
  browser: Browser,
  account: GoogleAccount,
  query = '?redirectTo=/settings&remember=true',
) {
  nextAccount = account;
  const start = await browser.get(`/api/auth/oauth/google/start${query}`);
  expect(start.status).toBe(302);
  const authorization = new URL(String(start.headers.location));
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  const back = new URL(await throughProvider(authorization.toString()));
  return browser.get(`${back.pathname}${back.search}`);
}

const googleAccount = (overrides: Partial<GoogleAccount> = {}): GoogleAccount => ({
  sub: `g-${Math.random().toString(36).slice(2)}`,
  email: `g.${Math.random().toString(36).slice(2, 8)}@gmail.test`,
  email_verified: true,
  name: 'Tunde Bakare',
  ...overrides,
});

describe('Google sign-in (OIDC, code + PKCE) against a real provider', () => {
  it('creates an account on first sign-in and lands where the user was going', async () => {
    const browser = new Browser(identity.app);
    const account = googleAccount();
    const callback = await signInWithGoogle(browser, account);
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe(`${PUBLIC_URL}/settings`);
    const session = await browser.get('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: account.email, emailVerified: true });
    expect(session.body.profile.fullName).toBe('Tunde Bakare');
    expect(session.body.session.persistent).toBe(true);

    // The second time, the same account — no duplicate.
    const again = new Browser(identity.app);
    await signInWithGoogle(again, account);
    expect((await again.get('/api/auth/session')).body.user.id).toBe(session.body.user.id);
    expect((await browser.get('/api/auth/oauth/providers')).body).toEqual({ google: true });
  });

  it('links to the existing account with the same verified e-mail', async () => {
    const details = makeSignUp();
    const owner = new Browser(identity.app);
    const signUp = await owner.post('/api/auth/sign-up', details);
    await identity.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [
      signUp.body.user.id,
    ]);

    const browser = new Browser(identity.app);
    await signInWithGoogle(browser, googleAccount({ email: details.email.toUpperCase() }));
    expect((await browser.get('/api/auth/session')).body.user.id).toBe(signUp.body.user.id);
    // The password keeps working, and so does the existing session.
    expect(
      (
        await new Browser(identity.app).post('/api/auth/sign-in', {
          email: details.email,
          password: details.password,
        })
      ).status,
    ).toBe(200);
    expect((await owner.get('/api/auth/session')).status).toBe(200);
  });

  it('takes over an unverified account only after removing the squatter’s password and sessions', async () => {
    const details = makeSignUp();
    const squatter = new Browser(identity.app);
    const signUp = await squatter.post('/api/auth/sign-up', details);
    const browser = new Browser(identity.app);
    await signInWithGoogle(browser, googleAccount({ email: details.email }));
    const session = await browser.get('/api/auth/session');
    expect(session.body.user).toMatchObject({ id: signUp.body.user.id, emailVerified: true });
    expect((await squatter.get('/api/auth/session')).status).toBe(401);
    expect(
      (
        await new Browser(identity.app).post('/api/auth/sign-in', {
          email: details.email,
          password: details.password,
        })
      ).status,
    ).toBe(401);
  });

  it('refuses a Google e-mail that is not verified', async () => {
    const callback = await signInWithGoogle(
      new Browser(identity.app),
      googleAccount({ email_verified: false }),
    );
    expect(callback.headers.location).toBe(`${PUBLIC_URL}/login?error=oauth_email_unverified`);
  });

  it('refuses a callback in a browser that did not start the sign-in (state mismatch)', async () => {
    const victim = new Browser(identity.app);
    const attacker = new Browser(identity.app);
    nextAccount = googleAccount();
    const start = await attacker.get('/api/auth/oauth/google/start');
    const back = new URL(await throughProvider(String(start.headers.location)));
    const callback = await victim.get(`${back.pathname}${back.search}`);
    expect(callback.headers.location).toBe(`${PUBLIC_URL}/login?error=oauth_state_mismatch`);
    expect(victim.cookie('ld_access')).toBeUndefined();
    // Only the browser that started can finish, and only once.
    expect((await attacker.get(`${back.pathname}${back.search}`)).headers.location).toBe(
      `${PUBLIC_URL}/dashboard`,
    );
    attacker.cookies.set('ld_oauth_state', {
      value: new URL(String(start.headers.location)).searchParams.get('state')!,
      path: '/api/auth/oauth',
      attributes: '',
    });
    const replay = await attacker.get(`${back.pathname}${back.search}`);
    expect(replay.headers.location).toBe(`${PUBLIC_URL}/login?error=oauth_state_mismatch`);
  });

  it('never redirects off-site after sign-in', async () => {
    const callback = await signInWithGoogle(
      new Browser(identity.app),
      googleAccount(),
      '?redirectTo=//evil.example/x',
    );
    expect(callback.headers.location).toBe(`${PUBLIC_URL}/dashboard`);
  });
});

import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  latestMail,
  linkIn,
  makeSignUp,
  startIdentity,
  type TestIdentity,
} from './support.js';

/**
 * Re-authentication (issue 30, item 4): access tokens carry `auth_time`, the last proof of who
 * the person is; refreshing keeps it, so only a password, an authenticator code or an e-mailed
 * code makes it recent again — what payments' `requireRecentAuth` relies on.
 */
let identity: TestIdentity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity?.close());

let ipCounter = 0;
const browser = () => {
  ipCounter += 1;
  return new Browser(identity.app, {
    'x-forwarded-for': `203.0.113.${100 + ipCounter}`,
    'user-agent': 'vitest',
  });
};

const authTimeOf = (client: Browser) => decodeJwt(client.cookie('ld_access')!).auth_time as number;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The session's last proof of identity, moved an hour back: a stolen session's state. */
async function ageSessions(email: string) {
  await identity.db.query(
    `UPDATE sessions SET auth_time = now() - interval '1 hour'
     WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [email],
  );
}

async function signedUp() {
  const details = makeSignUp();
  const client = browser();
  expect((await client.post('/api/auth/sign-up', details)).status).toBe(201);
  return { details, client };
}

async function codeFor(secret: string, steps = 0): Promise<string> {
  const intoPeriod = (Date.now() / 1000) % 30;
  if (intoPeriod > 28)
    await new Promise((resolve) => setTimeout(resolve, (30.2 - intoPeriod) * 1000));
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

describe('auth_time in access tokens', () => {
  it('is the sign-in time, survives a refresh, and only a re-authentication renews it', async () => {
    const { details, client } = await signedUp();
    expect(Math.abs(authTimeOf(client) - nowSeconds())).toBeLessThanOrEqual(2);

    await ageSessions(details.email);
    expect((await client.post('/api/auth/refresh')).status).toBe(200);
    const stale = authTimeOf(client);
    expect(nowSeconds() - stale).toBeGreaterThanOrEqual(3600 - 2);

    expect((await client.get('/api/auth/reauthenticate')).body).toEqual({ method: 'password' });
    const wrong = await client.post('/api/auth/reauthenticate', { password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('invalid_password');
    expect(authTimeOf(client)).toBe(stale);

    const confirmed = await client.post('/api/auth/reauthenticate', {
      password: details.password,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user.email).toBe(details.email);
    expect(Math.abs(authTimeOf(client) - nowSeconds())).toBeLessThanOrEqual(2);
    // The refresh cookie stays; a later refresh keeps the fresh proof.
    expect((await client.post('/api/auth/refresh')).status).toBe(200);
    expect(Math.abs(authTimeOf(client) - nowSeconds())).toBeLessThanOrEqual(2);
  });

  it('renews only the session that re-authenticated, and needs a live session', async () => {
    const { details, client } = await signedUp();
    const other = browser();
    await other.post('/api/auth/sign-in', { email: details.email, password: details.password });
    await ageSessions(details.email);
    await client.post('/api/auth/reauthenticate', { password: details.password });
    await other.post('/api/auth/refresh');
    expect(nowSeconds() - authTimeOf(other)).toBeGreaterThanOrEqual(3600 - 2);

    const anonymous = await browser().post('/api/auth/reauthenticate', { password: 'x' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
  });

  it('with two-factor on, asks for an authenticator code: the password alone is not enough', async () => {
    const { details, client } = await signedUp();
    const link = linkIn(await latestMail(identity.db, details.email, /Confirm your e-mail/));
    await client.get(`${link.pathname}${link.search}`);
    const { secret } = (await client.post('/api/auth/mfa/enroll')).body;
    await client.post('/api/auth/mfa/verify', { code: await codeFor(secret, -1) });
    await ageSessions(details.email);
    await client.post('/api/auth/refresh');

    expect((await client.get('/api/auth/reauthenticate')).body).toEqual({ method: 'mfa' });
    const passwordOnly = await client.post('/api/auth/reauthenticate', {
      password: details.password,
    });
    expect(passwordOnly.status).toBe(400);
    expect(passwordOnly.body.error.code).toBe('missing_fields');
    const wrongCode = await client.post('/api/auth/reauthenticate', { code: '000000' });
    expect(wrongCode.body.error.code).toBe('mfa_invalid_code');
    expect(nowSeconds() - authTimeOf(client)).toBeGreaterThanOrEqual(3600 - 2);
    const confirmed = await client.post('/api/auth/reauthenticate', {
      code: await codeFor(secret),
    });
    expect(confirmed.status).toBe(200);
    expect(Math.abs(authTimeOf(client) - nowSeconds())).toBeLessThanOrEqual(2);
  });

  it('an account without a password (Google only) confirms with a one-time code e-mailed to it', async () => {
    const { details, client } = await signedUp();
    // What a Google sign-up leaves: no password hash.
    await identity.db.query('UPDATE users SET password_hash = NULL WHERE email = $1', [
      details.email,
    ]);
    await ageSessions(details.email);
    await client.post('/api/auth/refresh');
    expect((await client.get('/api/auth/reauthenticate')).body).toEqual({ method: 'email_code' });

    expect((await client.post('/api/auth/reauthenticate/code')).status).toBe(202);
    const mail = await latestMail(identity.db, details.email, /confirmation code/);
    const code = /\b(\d{6})\b/.exec(mail.subject)![1]!;
    const wrong = await client.post('/api/auth/reauthenticate', {
      code: code === '000000' ? '000001' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('reauth_code_invalid');

    expect((await client.post('/api/auth/reauthenticate', { code })).status).toBe(200);
    expect(Math.abs(authTimeOf(client) - nowSeconds())).toBeLessThanOrEqual(2);
    // Once only.
    const again = await client.post('/api/auth/reauthenticate', { code });
    expect(again.body.error.code).toBe('reauth_code_invalid');
  });

  it('an e-mailed code dies after five wrong guesses, even the right one after them', async () => {
    const { details, client } = await signedUp();
    await identity.db.query('UPDATE users SET password_hash = NULL WHERE email = $1', [
      details.email,
    ]);
    await client.post('/api/auth/reauthenticate/code');
    const mail = await latestMail(identity.db, details.email, /confirmation code/);
    const code = /\b(\d{6})\b/.exec(mail.subject)![1]!;
    const wrong = code === '999999' ? '999998' : '999999';
    for (let attempt = 0; attempt < 5; attempt += 1)
      await client.post('/api/auth/reauthenticate', { code: wrong });
    const late = await client.post('/api/auth/reauthenticate', { code });
    expect(late.body.error.code).toBe('reauth_code_invalid');
  });
});

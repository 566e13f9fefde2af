import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  PUBLIC_URL,
  isSignedOut,
  latestMail,
  linkIn,
  makeSignUp,
  startIdentity,
  type TestIdentity,
} from './support.js';

let identity: TestIdentity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity?.close());

const browser = (ip = '203.0.113.10') =>
  new Browser(identity.app, { 'x-forwarded-for': ip, 'user-agent': 'vitest' });

describe('the account journey', () => {
  it('signs up, verifies by e-mail, signs in, rotates, detects reuse and signs out everywhere', async () => {
    const details = makeSignUp();
    const laptop = browser();

    const signUp = await laptop.post('/api/auth/sign-up', details);
    expect(signUp.status).toBe(201);
    expect(signUp.body.user).toMatchObject({
      email: details.email,
      emailVerified: false,
      plan: 'free',
    });
    expect(signUp.body.profile).toMatchObject({
      fullName: 'Ada Obi',
      plan: 'free',
      payoutMethod: null,
      role: null,
    });
    expect(laptop.cookie('ld_access')).toBeTruthy();
    expect(laptop.cookie('ld_refresh')).toBeTruthy();

    const mail = await latestMail(identity.db, details.email, /Confirm your e-mail/);
    const link = linkIn(mail);
    expect(link.origin).toBe(PUBLIC_URL);
    const verified = await laptop.get(`${link.pathname}${link.search}`);
    expect(verified.status).toBe(303);
    expect(verified.headers.location).toBe(`${PUBLIC_URL}/email-verified`);
    const again = await laptop.get(`${link.pathname}${link.search}`);
    expect(again.headers.location).toBe(`${PUBLIC_URL}/email-verified?error=invalid_token`);

    expect((await laptop.get('/api/auth/session')).body.user.emailVerified).toBe(true);

    const phone = browser('198.51.100.7');
    const signIn = await phone.post('/api/auth/sign-in', {
      email: details.email.toUpperCase(),
      password: details.password,
      remember: true,
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.emailVerified).toBe(true);
    const firstRefresh = phone.cookie('ld_refresh')!;

    const rotated = await phone.post('/api/auth/refresh');
    expect(rotated.status).toBe(200);
    const secondRefresh = phone.cookie('ld_refresh')!;
    expect(secondRefresh).not.toBe(firstRefresh);

    // An attacker replays the first (rotated) refresh token: the whole family dies.
    const thief = browser('192.0.2.66');
    thief.cookies.set('ld_refresh', { value: firstRefresh, path: '/api/auth', attributes: '' });
    const replay = await thief.post('/api/auth/refresh');
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('refresh_token_reused');
    const victim = await phone.post('/api/auth/refresh');
    expect(victim.status).toBe(401);
    expect(isSignedOut(await phone.get('/api/auth/session'))).toBe(true);

    // Two live sessions; global sign-out from the laptop ends both.
    const tablet = browser('198.51.100.8');
    expect(
      (await tablet.post('/api/auth/sign-in', { email: details.email, password: details.password }))
        .status,
    ).toBe(200);
    const list = await laptop.get('/api/auth/sessions');
    expect(list.body.sessions).toHaveLength(2);
    expect(
      list.body.sessions.filter((session: { current: boolean }) => session.current),
    ).toHaveLength(1);

    const signOut = await laptop.post('/api/auth/sign-out', { scope: 'global' });
    expect(signOut.status).toBe(204);
    expect(laptop.cookie('ld_access')).toBeUndefined();
    for (const device of [laptop, tablet]) {
      expect(isSignedOut(await device.get('/api/auth/session'))).toBe(true);
      expect((await device.post('/api/auth/refresh')).status).toBe(401);
    }
  });
});

describe('sessions', () => {
  const signedIn = async (details = makeSignUp(), remember = false) => {
    const client = browser();
    expect((await client.post('/api/auth/sign-up', { ...details, remember })).status).toBe(201);
    return { client, details };
  };

  it('tells a visitor without credentials "nobody" with 200, and a dead session 401 with the spec text', async () => {
    // No cookie, no token: not an error (issue 29: every anonymous page logged a 401).
    const anonymous = await browser().get('/api/auth/session');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ user: null });
    // A cookie that names no live session is still refused, as every other route refuses it.
    const stale = browser();
    stale.cookies.set('ld_access', { value: 'not-a-token', path: '/', attributes: '' });
    const refused = await stale.get('/api/auth/session');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: 'unauthorized', message: 'Auth session missing!' });
    // Routes that need a session still answer 401 without one.
    expect((await browser().get('/api/auth/sessions')).status).toBe(401);
  });

  it('sets httpOnly SameSite=Lax cookies, Secure over https, persistent only with remember me', async () => {
    const details = makeSignUp();
    await signedIn(details);
    const remembered = browser();
    const response = await remembered.post(
      '/api/auth/sign-in',
      { email: details.email, password: details.password, remember: true },
      { 'x-forwarded-proto': 'https' },
    );
    const access = response.setCookies.find((line) => line.startsWith('ld_access='))!;
    const refresh = response.setCookies.find((line) => line.startsWith('ld_refresh='))!;
    for (const line of [access, refresh]) {
      expect(line).toMatch(/HttpOnly/);
      expect(line).toMatch(/SameSite=Lax/);
      expect(line).toMatch(/Secure/);
    }
    expect(access).toMatch(/Path=\//);
    expect(refresh).toMatch(/Path=\/api\/auth/);
    const expires = new Date(/Expires=([^;]+)/.exec(refresh)![1]!).getTime();
    expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    const session = await browser().post('/api/auth/sign-in', {
      email: details.email,
      password: details.password,
    });
    for (const line of session.setCookies) {
      expect(line).not.toMatch(/Expires|Max-Age/);
      expect(line).not.toMatch(/Secure/);
    }
  });

  it('renews an expired access token from the refresh cookie when the session is asked for', async () => {
    const { client } = await signedIn();
    client.cookies.delete('ld_access');
    const response = await client.get('/api/auth/session');
    expect(response.status).toBe(200);
    expect(client.cookie('ld_access')).toBeTruthy();
    expect(new Date(response.body.session.expiresAt).getTime()).toBeGreaterThan(
      Date.now() + 14 * 60_000,
    );
  });

  it('signs out only the other sessions with scope others, and revokes one session by id', async () => {
    const { client, details } = await signedIn();
    const other = browser();
    await other.post('/api/auth/sign-in', { email: details.email, password: details.password });
    const third = browser();
    await third.post('/api/auth/sign-in', { email: details.email, password: details.password });

    const thirdId = (await third.get('/api/auth/session')).body.session.id;
    expect((await client.request('DELETE', `/api/auth/sessions/${thirdId}`)).status).toBe(204);
    expect(isSignedOut(await third.get('/api/auth/session'))).toBe(true);
    expect((await client.request('DELETE', `/api/auth/sessions/${thirdId}`)).status).toBe(404);

    expect((await client.post('/api/auth/sign-out', { scope: 'others' })).status).toBe(204);
    expect(isSignedOut(await other.get('/api/auth/session'))).toBe(true);
    expect((await client.get('/api/auth/session')).status).toBe(200);

    expect((await client.post('/api/auth/sign-out')).status).toBe(204);
    expect(isSignedOut(await client.get('/api/auth/session'))).toBe(true);
  });

  it('puts user.signed_up and profile.updated in the outbox with the request id', async () => {
    const details = makeSignUp();
    await browser().post('/api/auth/sign-up', details, { 'x-request-id': 'signup-trace-0001' });
    const { rows } = await identity.db.query(
      `SELECT type, payload FROM outbox WHERE payload->'data'->>'email' = $1 ORDER BY created_at`,
      [details.email],
    );
    expect(rows.map((row) => row.type)).toEqual(['user.signed_up', 'profile.updated']);
    expect(rows[0].payload).toMatchObject({
      correlationId: 'signup-trace-0001',
      data: { email: details.email, fullName: 'Ada Obi' },
    });
    await expect
      .poll(
        async () =>
          (
            await identity.db.query(
              'SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL',
            )
          ).rows[0].n,
        { timeout: 5_000 },
      )
      .toBe(0);
  });

  it('stores password hashes with argon2id and refresh tokens only as hashes', async () => {
    const { client, details } = await signedIn();
    const { rows } = await identity.db.query('SELECT password_hash FROM users WHERE email = $1', [
      details.email,
    ]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    const tokens = await identity.db.query(
      'SELECT token_hash FROM refresh_tokens WHERE token_hash = $1',
      [client.cookie('ld_refresh')],
    );
    expect(tokens.rowCount).toBe(0);
  });
});

/** A code from an authenticator app with this secret, `steps` periods away from now. */
async function codeFor(secret: string, steps = 0): Promise<string> {
  // Codes near a period boundary could fall out of the server's window while in flight.
  const intoPeriod = (Date.now() / 1000) % 30;
  if (intoPeriod > 28)
    await new Promise((resolve) => setTimeout(resolve, (30.2 - intoPeriod) * 1000));
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

/** Opens the verification link from the sign-up e-mail in `client`. */
async function verifyByMail(client: ReturnType<typeof browser>, email: string) {
  const link = linkIn(await latestMail(identity.db, email, /Confirm your e-mail/));
  expect((await client.get(`${link.pathname}${link.search}`)).status).toBe(303);
}

describe('TOTP two-factor', () => {
  it('enrols with an otpauth URI and QR code, challenges at sign-in, and unenrols', async () => {
    const details = makeSignUp();
    const client = browser('203.0.113.70');
    await client.post('/api/auth/sign-up', details);
    await verifyByMail(client, details.email);

    const enrollment = await client.post('/api/auth/mfa/enroll');
    expect(enrollment.status).toBe(200);
    const { secret, otpauthUri, qrCodeDataUrl } = enrollment.body;
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Lockdrop:/);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect((await client.get('/api/auth/mfa')).body).toEqual({
      enabled: false,
      pending: true,
      recoveryCodesRemaining: 0,
    });

    expect((await client.post('/api/auth/mfa/verify', { code: '000000' })).body.error.code).toBe(
      'mfa_invalid_code',
    );
    expect(
      (await client.post('/api/auth/mfa/verify', { code: await codeFor(secret, -1) })).body,
    ).toMatchObject({ enabled: true });
    expect((await client.get('/api/auth/mfa')).body).toEqual({
      enabled: true,
      pending: false,
      recoveryCodesRemaining: 10,
    });
    expect((await client.post('/api/auth/mfa/enroll')).body.error.code).toBe(
      'mfa_already_enrolled',
    );

    // Sign-in now stops at a challenge: no cookies until the code is given.
    const phone = browser('203.0.113.71');
    const first = await phone.post('/api/auth/sign-in', {
      email: details.email,
      password: details.password,
      remember: true,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mfaRequired: true });
    expect(first.body.user).toBeUndefined();
    expect(phone.cookie('ld_access')).toBeUndefined();

    const wrong = await phone.post('/api/auth/mfa/challenge', {
      challengeToken: first.body.challengeToken,
      code: '123456',
    });
    expect(wrong.body.error.code).toBe('mfa_invalid_code');
    // The code already used for enrolment cannot be replayed.
    const replayed = await phone.post('/api/auth/mfa/challenge', {
      challengeToken: first.body.challengeToken,
      code: await codeFor(secret, -1),
    });
    expect(replayed.body.error.code).toBe('mfa_invalid_code');
    const passed = await phone.post('/api/auth/mfa/challenge', {
      challengeToken: first.body.challengeToken,
      code: await codeFor(secret, 0),
    });
    expect(passed.status).toBe(200);
    expect(passed.body.session.persistent).toBe(true);
    expect(phone.cookie('ld_access')).toBeTruthy();
    const reused = await phone.post('/api/auth/mfa/challenge', {
      challengeToken: first.body.challengeToken,
      code: await codeFor(secret, 1),
    });
    expect(reused.body.error.code).toBe('invalid_token');

    expect((await phone.post('/api/auth/mfa/unenroll', { code: '111111' })).status).toBe(400);
    expect(
      (await phone.post('/api/auth/mfa/unenroll', { code: await codeFor(secret, 1) })).status,
    ).toBe(204);
    const plain = await browser('203.0.113.72').post('/api/auth/sign-in', {
      email: details.email,
      password: details.password,
    });
    expect(plain.body.user.email).toBe(details.email);
  });

  it('gives up on a challenge after five wrong codes', async () => {
    const details = makeSignUp();
    const client = browser('203.0.113.73');
    await client.post('/api/auth/sign-up', details);
    await verifyByMail(client, details.email);
    const { secret } = (await client.post('/api/auth/mfa/enroll')).body;
    await client.post('/api/auth/mfa/verify', { code: await codeFor(secret, -1) });
    const { challengeToken } = (
      await client.post('/api/auth/sign-in', { email: details.email, password: details.password })
    ).body;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (await client.post('/api/auth/mfa/challenge', { challengeToken, code: '000000' })).body
          .error.code,
      ).toBe('mfa_invalid_code');
    }
    const exhausted = await client.post('/api/auth/mfa/challenge', {
      challengeToken,
      code: await codeFor(secret, 0),
    });
    expect(exhausted.body.error.code).toBe('invalid_token');
  });

  it('limits wrong codes per account across challenges, and tells the owner once', async () => {
    const details = makeSignUp();
    const owner = browser('203.0.113.74');
    await owner.post('/api/auth/sign-up', details);
    await verifyByMail(owner, details.email);
    const { secret } = (await owner.post('/api/auth/mfa/enroll')).body;
    await owner.post('/api/auth/mfa/verify', { code: await codeFor(secret, -1) });

    // Someone with the password, from ever-new addresses, opening a fresh challenge each time.
    const attacker = async (attempt: number) => {
      const thief = browser(`198.51.100.${attempt + 10}`);
      const { challengeToken } = (
        await thief.post('/api/auth/sign-in', { email: details.email, password: details.password })
      ).body;
      return { thief, challengeToken: challengeToken as string };
    };
    const answers: string[] = [];
    for (let challenge = 0; challenge < 2; challenge += 1) {
      const { thief, challengeToken } = await attacker(challenge);
      for (let guess = 0; guess < 5; guess += 1) {
        const response = await thief.post('/api/auth/mfa/challenge', {
          challengeToken,
          code: String(100000 + challenge * 5 + guess),
        });
        answers.push(response.body.error.code);
      }
    }
    expect(answers.slice(0, 9).every((code) => code === 'mfa_invalid_code')).toBe(true);
    expect(answers[9]).toBe('rate_limited');

    // Even the right code from a new challenge waits out the window now.
    const { thief, challengeToken } = await attacker(3);
    const blocked = await thief.post('/api/auth/mfa/challenge', {
      challengeToken,
      code: await codeFor(secret, 0),
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limited');

    const warning = await latestMail(identity.db, details.email, /trying to sign in/);
    expect(warning.text).toContain('someone knows your password');
    const { rows } = await identity.db.query(
      `SELECT count(*)::int AS n FROM mailbox.messages WHERE recipient = $1 AND subject LIKE 'Someone is trying%'`,
      [details.email],
    );
    expect(rows[0].n).toBe(1);
  });

  it('needs a verified e-mail to enrol, so a squatter cannot lock the real owner out', async () => {
    const details = makeSignUp();
    const squatter = browser('203.0.113.75');
    await squatter.post('/api/auth/sign-up', details);
    const refused = await squatter.post('/api/auth/mfa/enroll');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('email_not_verified');
  });

  it('drops a factor set up before the address was proven when the owner resets the password', async () => {
    const details = makeSignUp();
    await browser('203.0.113.76').post('/api/auth/sign-up', details);
    // An enrolment from before verification was required (or by a squatter, before this fix).
    await identity.db.query(
      `INSERT INTO mfa_factors (user_id, secret, verified_at)
       SELECT id, 'JBSWY3DPEHPK3PXP', now() FROM users WHERE email = $1`,
      [details.email],
    );
    await browser('203.0.113.77').post('/api/auth/forgot-password', { email: details.email });
    const link = linkIn(await latestMail(identity.db, details.email, /Reset/));
    const reset = await browser('203.0.113.77').post('/api/auth/reset-password', {
      token: link.searchParams.get('token'),
      password: 'the real owner now',
    });
    expect(reset.status).toBe(200);
    const signIn = await browser('203.0.113.77').post('/api/auth/sign-in', {
      email: details.email,
      password: 'the real owner now',
    });
    expect(signIn.body.mfaRequired).toBeUndefined();
    expect(signIn.body.user.email).toBe(details.email);
  });
});

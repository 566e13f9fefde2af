import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Browser,
  latestMail,
  linkIn,
  makeSignUp,
  startIdentity,
  type TestIdentity,
} from './support.js';

let identity: TestIdentity;
let ipCounter = 0;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity?.close());

/** Each browser comes from its own address unless told otherwise, so per-IP limits stay out of the way. */
const browser = (ip = `203.0.113.${(ipCounter += 1)}`) =>
  new Browser(identity.app, { 'x-forwarded-for': ip });

describe('sign-up validation (spec §5)', () => {
  it.each([
    ['no full name', { fullName: '' }, 400, 'missing_fields', 'Please fill in all fields'],
    ['blank full name', { fullName: '   ' }, 400, 'missing_fields', 'Please fill in all fields'],
    ['no e-mail', { email: undefined }, 400, 'missing_fields', 'Please fill in all fields'],
    ['no password', { password: '' }, 400, 'missing_fields', 'Please fill in all fields'],
    [
      'a malformed e-mail',
      { email: 'not-an-email' },
      400,
      'invalid_email',
      'Please enter a valid e-mail address',
    ],
    [
      'a 7-character password',
      { password: '1234567' },
      400,
      'weak_password',
      'Password must be at least 8 characters long',
    ],
    [
      'terms not accepted',
      { acceptTerms: false },
      400,
      'terms_required',
      'Please accept the terms of service and privacy policy',
    ],
    [
      'terms missing',
      { acceptTerms: undefined },
      400,
      'terms_required',
      'Please accept the terms of service and privacy policy',
    ],
  ])('refuses %s', async (_case, overrides, status, code, message) => {
    const response = await browser().post('/api/auth/sign-up', makeSignUp(overrides));
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, message });
    expect(response.setCookies).toEqual([]);
  });

  it('checks in the spec order: missing fields before password length before terms', async () => {
    const response = await browser().post('/api/auth/sign-up', {
      fullName: 'A',
      email: '',
      password: 'short',
      acceptTerms: false,
    });
    expect(response.body.error.code).toBe('missing_fields');
    const weak = await browser().post(
      '/api/auth/sign-up',
      makeSignUp({ password: 'short', acceptTerms: false }),
    );
    expect(weak.body.error.code).toBe('weak_password');
  });

  it('refuses an e-mail that differs only in case with 409 email_taken', async () => {
    const details = makeSignUp();
    expect((await browser().post('/api/auth/sign-up', details)).status).toBe(201);
    const duplicate = await browser().post(
      '/api/auth/sign-up',
      makeSignUp({ email: `  ${details.email.toUpperCase()} ` }),
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('email_taken');
    expect(duplicate.body.error.message).toMatch(/already exists/);
  });
});

describe('sign-in validation and throttling', () => {
  it.each([[{ email: '', password: 'x' }], [{ email: 'a@b.co' }], [{}]])(
    'answers missing_fields for %j',
    async (body) => {
      const response = await browser().post('/api/auth/sign-in', body);
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'missing_fields',
        message: 'Please fill in all fields',
      });
    },
  );

  it('answers the same invalid_credentials for a wrong password and an unknown e-mail', async () => {
    const details = makeSignUp();
    await browser().post('/api/auth/sign-up', details);
    const wrong = await browser().post('/api/auth/sign-in', {
      email: details.email,
      password: 'wrong password',
    });
    const unknown = await browser().post('/api/auth/sign-in', {
      email: 'nobody@example.com',
      password: 'wrong password',
    });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body.error).toEqual({
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    }
  });

  it('locks an account after 5 failed attempts from any address, with Retry-After', async () => {
    const details = makeSignUp();
    await browser().post('/api/auth/sign-up', details);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (await browser().post('/api/auth/sign-in', { email: details.email, password: 'nope nope' }))
          .status,
      ).toBe(401);
    }
    const locked = await browser().post('/api/auth/sign-in', {
      email: details.email,
      password: details.password,
    });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('rate_limited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits sign-in attempts per IP address', async () => {
    const sameIp = '198.51.100.200';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      statuses.push(
        (
          await browser(sameIp).post('/api/auth/sign-in', {
            email: `x${attempt}@example.com`,
            password: 'whatever1',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(
      (
        await browser().post('/api/auth/sign-in', {
          email: 'x0@example.com',
          password: 'whatever1',
        })
      ).status,
    ).toBe(401);
  });
});

describe('client addresses', () => {
  it('ignores X-Forwarded-For from a client that reaches identity directly', async () => {
    // A public address, not the gateway: each request claims to come from somewhere new.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      const response = await identity.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        remoteAddress: '198.51.100.77',
        headers: { 'x-forwarded-for': `203.0.113.${attempt + 1}` },
        payload: { email: `direct${attempt}@example.com`, password: 'whatever1' },
      });
      statuses.push(response.statusCode);
    }
    // Counted against the socket's address, so the per-IP limit still holds.
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('password reset', () => {
  it('answers the same for known and unknown addresses and mails only the known one', async () => {
    const details = makeSignUp();
    await browser().post('/api/auth/sign-up', details);
    const known = await browser().post('/api/auth/forgot-password', { email: details.email });
    const unknown = await browser().post('/api/auth/forgot-password', {
      email: 'ghost@example.com',
    });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    await latestMail(identity.db, details.email, /Reset your Lockdrop password/);
  });

  it('resets once with the link, signs every session out, and refuses reuse', async () => {
    const details = makeSignUp();
    const client = browser();
    await client.post('/api/auth/sign-up', details);
    await browser().post('/api/auth/forgot-password', { email: details.email });
    const link = linkIn(await latestMail(identity.db, details.email, /Reset/));
    expect(link.pathname).toBe('/reset-password');
    const token = link.searchParams.get('token');

    expect(
      (await browser().post('/api/auth/reset-password', { token, password: 'short' })).body.error
        .code,
    ).toBe('weak_password');
    const reset = await browser().post('/api/auth/reset-password', {
      token,
      password: 'a brand new secret',
    });
    expect(reset.status).toBe(200);
    expect((await client.get('/api/auth/session')).status).toBe(401);
    expect(
      (
        await browser().post('/api/auth/sign-in', {
          email: details.email,
          password: details.password,
        })
      ).status,
    ).toBe(401);
    const signIn = await browser().post('/api/auth/sign-in', {
      email: details.email,
      password: 'a brand new secret',
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.emailVerified).toBe(true);

    const reuse = await browser().post('/api/auth/reset-password', {
      token,
      password: 'another new secret',
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.code).toBe('invalid_token');
  });

  it('refuses an expired link with token_expired', async () => {
    const details = makeSignUp();
    await browser().post('/api/auth/sign-up', details);
    await browser().post('/api/auth/forgot-password', { email: details.email });
    const token = linkIn(await latestMail(identity.db, details.email, /Reset/)).searchParams.get(
      'token',
    );
    await identity.db.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password' AND email = $1`,
      [details.email],
    );
    const response = await browser().post('/api/auth/reset-password', {
      token,
      password: 'a brand new secret',
    });
    expect(response.body.error.code).toBe('token_expired');
  });

  it('throttles reset requests per account with 429', async () => {
    const email = 'throttled.reset@example.com';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1)
      statuses.push((await browser().post('/api/auth/forgot-password', { email })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});

describe('e-mail verification', () => {
  it('resends a link to an unverified address; the newest link works and older ones die with it', async () => {
    const details = makeSignUp();
    const client = browser();
    await client.post('/api/auth/sign-up', details);
    const first = linkIn(await latestMail(identity.db, details.email)).searchParams.get('token');
    expect((await client.post('/api/auth/resend-verification', {})).status).toBe(202);
    await expect
      .poll(
        async () => linkIn(await latestMail(identity.db, details.email)).searchParams.get('token'),
        { timeout: 5_000 },
      )
      .not.toBe(first);
    const second = linkIn(await latestMail(identity.db, details.email)).searchParams.get('token');
    expect((await browser().post('/api/auth/verify-email', { token: second })).body).toEqual({
      status: 'verified',
    });
    expect((await browser().post('/api/auth/verify-email', { token: first })).body.error.code).toBe(
      'invalid_token',
    );
    expect(
      (await browser().post('/api/auth/resend-verification', { email: 'nobody@example.com' }))
        .status,
    ).toBe(202);
  });

  it('publishes user.email_verified', async () => {
    const details = makeSignUp();
    await browser().post('/api/auth/sign-up', details);
    const token = linkIn(await latestMail(identity.db, details.email)).searchParams.get('token');
    await browser().post('/api/auth/verify-email', { token });
    const { rows } = await identity.db.query(
      `SELECT type FROM outbox WHERE payload->'data'->>'email' = $1 ORDER BY created_at`,
      [details.email],
    );
    expect(rows.map((row) => row.type)).toEqual([
      'user.signed_up',
      'profile.updated',
      'user.email_verified',
      'profile.updated',
    ]);
  });
});

describe('contact form', () => {
  it('delivers a valid message to the team inbox with reply-to, and validates input', async () => {
    const response = await browser().post('/api/contact', {
      name: 'Chioma',
      email: 'chioma@example.com',
      message: 'I would like to sell my beats on Lockdrop.',
    });
    expect(response.status).toBe(202);
    const mail = await latestMail(identity.db, 'hello@lockdrop.app', /Chioma/);
    expect(mail.replyTo).toBe('chioma@example.com');
    expect(mail.text).toContain('sell my beats');

    const invalid = await browser().post('/api/contact', {
      name: '',
      email: 'nope',
      message: 'short',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('validation_failed');
  });

  it('throttles per IP', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push(
        (
          await browser('192.0.2.99').post('/api/contact', {
            name: 'Spam',
            email: 's@example.com',
            message: 'buy cheap things now',
          })
        ).status,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

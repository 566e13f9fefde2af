import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, makeSignUp, startIdentity, type TestIdentity } from './support.js';

let identity: TestIdentity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity?.close());

/** A code from an authenticator app with this secret, `steps` periods away from now. */
async function codeFor(secret: string, steps = 0): Promise<string> {
  // Codes near a period boundary could fall out of the server's window while in flight.
  const intoPeriod = (Date.now() / 1000) % 30;
  if (intoPeriod > 28) await new Promise((resolve) => setTimeout(resolve, (30.2 - intoPeriod) * 1000));
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
}

describe('TOTP two-factor', () => {
  it('enrols with an otpauth URI and QR code, challenges at sign-in, and unenrols', async () => {
    const details = makeSignUp();
    const client = new Browser(identity.app, { 'x-forwarded-for': '203.0.113.70' });
    await client.post('/api/auth/sign-up', details);

    const enrollment = await client.post('/api/auth/mfa/enroll');
    expect(enrollment.status).toBe(200);
    const { secret, otpauthUri, qrCodeDataUrl } = enrollment.body;
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Lockdrop:/);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect((await client.get('/api/auth/mfa')).body).toEqual({ enabled: false, pending: true });

    expect((await client.post('/api/auth/mfa/verify', { code: '000000' })).body.error.code).toBe('mfa_invalid_code');
    expect((await client.post('/api/auth/mfa/verify', { code: await codeFor(secret, -1) })).body).toEqual({ enabled: true });
    expect((await client.get('/api/auth/mfa')).body).toEqual({ enabled: true, pending: false });
    expect((await client.post('/api/auth/mfa/enroll')).body.error.code).toBe('mfa_already_enrolled');

    // Sign-in now stops at a challenge: no cookies until the code is given.
    const phone = new Browser(identity.app, { 'x-forwarded-for': '203.0.113.71' });
    const first = await phone.post('/api/auth/sign-in', { email: details.email, password: details.password, remember: true });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ mfaRequired: true });
    expect(first.body.user).toBeUndefined();
    expect(phone.cookie('ld_access')).toBeUndefined();

    const wrong = await phone.post('/api/auth/mfa/challenge', { challengeToken: first.body.challengeToken, code: '123456' });
    expect(wrong.body.error.code).toBe('mfa_invalid_code');
    // The code already used for enrolment cannot be replayed.
    const replayed = await phone.post('/api/auth/mfa/challenge', { challengeToken: first.body.challengeToken, code: await codeFor(secret, -1) });
    expect(replayed.body.error.code).toBe('mfa_invalid_code');
    const passed = await phone.post('/api/auth/mfa/challenge', { challengeToken: first.body.challengeToken, code: await codeFor(secret, 0) });
    expect(passed.status).toBe(200);
    expect(passed.body.session.persistent).toBe(true);
    expect(phone.cookie('ld_access')).toBeTruthy();
    const reused = await phone.post('/api/auth/mfa/challenge', { challengeToken: first.body.challengeToken, code: await codeFor(secret, 1) });
    expect(reused.body.error.code).toBe('invalid_token');

    expect((await phone.post('/api/auth/mfa/unenroll', { code: '111111' })).status).toBe(400);
    expect((await phone.post('/api/auth/mfa/unenroll', { code: await codeFor(secret, 1) })).status).toBe(204);
    const plain = await new Browser(identity.app, { 'x-forwarded-for': '203.0.113.72' }).post('/api/auth/sign-in', {
      email: details.email,
      password: details.password,
    });
    expect(plain.body.user.email).toBe(details.email);
  });

  it('gives up on a challenge after five wrong codes', async () => {
    const details = makeSignUp();
    const client = new Browser(identity.app, { 'x-forwarded-for': '203.0.113.73' });
    await client.post('/api/auth/sign-up', details);
    const { secret } = (await client.post('/api/auth/mfa/enroll')).body;
    await client.post('/api/auth/mfa/verify', { code: await codeFor(secret, -1) });
    const { challengeToken } = (await client.post('/api/auth/sign-in', { email: details.email, password: details.password })).body;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await client.post('/api/auth/mfa/challenge', { challengeToken, code: '000000' })).body.error.code).toBe('mfa_invalid_code');
    }
    const exhausted = await client.post('/api/auth/mfa/challenge', { challengeToken, code: await codeFor(secret, 0) });
    expect(exhausted.body.error.code).toBe('invalid_token');
  });
});

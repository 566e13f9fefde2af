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
 * MFA recovery codes (issue 29, item 11): ten one-time codes when MFA is turned on, stored
 * hashed, each good once at the sign-in's second step, regenerable (after a recent proof of
 * identity) which voids the old set, and every use e-mailed with the count left.
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
    'x-forwarded-for': `203.0.113.${150 + ipCounter}`,
    'user-agent': 'vitest',
  });
};

async function codeFor(secret: string, steps = 0): Promise<string> {
  const intoPeriod = (Date.now() / 1000) % 30;
  if (intoPeriod > 28)
    await new Promise((resolve) => setTimeout(resolve, (30.2 - intoPeriod) * 1000));
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

/** A verified seller with MFA turned on: the codes `verify` answered, and the TOTP secret. */
async function sellerWithMfa() {
  const details = makeSignUp();
  const client = browser();
  expect((await client.post('/api/auth/sign-up', details)).status).toBe(201);
  const link = linkIn(await latestMail(identity.db, details.email, /Confirm your e-mail/));
  expect((await client.get(`${link.pathname}${link.search}`)).status).toBe(303);
  const { secret } = (await client.post('/api/auth/mfa/enroll')).body;
  const verified = await client.post('/api/auth/mfa/verify', { code: await codeFor(secret, -1) });
  expect(verified.status).toBe(200);
  return { details, client, secret, codes: verified.body.recoveryCodes as string[] };
}

/** Password first, then `code` at the MFA step, from a new browser. */
async function signInWith(details: { email: string; password: string }, code: string) {
  const client = browser();
  const first = await client.post('/api/auth/sign-in', {
    email: details.email,
    password: details.password,
  });
  expect(first.body.mfaRequired).toBe(true);
  const second = await client.post('/api/auth/mfa/challenge', {
    challengeToken: first.body.challengeToken,
    code,
  });
  return { client, response: second };
}

const userIdOf = async (email: string) =>
  (await identity.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]))
    .rows[0]!.id;

describe('MFA recovery codes', () => {
  it('turning MFA on answers ten distinct codes, kept only as salted slow hashes', async () => {
    const { details, client, codes } = await sellerWithMfa();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    expect((await client.get('/api/auth/mfa')).body).toEqual({
      enabled: true,
      pending: false,
      recoveryCodesRemaining: 10,
    });

    const { rows } = await identity.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1',
      [await userIdOf(details.email)],
    );
    expect(rows).toHaveLength(10);
    const stored = rows.map((row) => row.code_hash).join('\n');
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
    // Salted: the same scheme, never the same hash twice.
    expect(rows.every((row) => row.code_hash.startsWith('scrypt$'))).toBe(true);
    expect(new Set(rows.map((row) => row.code_hash.split('$')[1])).size).toBe(10);
  });

  it('signs in once with a code, says and e-mails how many remain, then refuses it', async () => {
    const { details, codes } = await sellerWithMfa();

    const wrong = await signInWith(details, 'abcde-fghjk');
    expect(wrong.response.status).toBe(400);
    expect(wrong.response.body.error.code).toBe('mfa_invalid_code');
    expect(wrong.client.cookie('ld_access')).toBeUndefined();

    // Typed as people type from paper: upper case, no dash, spaces.
    const typed = ` ${codes[3]!.toUpperCase().replace('-', ' ')} `;
    const used = await signInWith(details, typed);
    expect(used.response.status).toBe(200);
    expect(used.response.body.user.email).toBe(details.email);
    expect(used.response.body.recoveryCodesRemaining).toBe(9);
    expect(used.client.cookie('ld_access')).toBeTruthy();
    const mail = await latestMail(identity.db, details.email, /recovery code was used/);
    expect(mail.text).toContain('You have 9 recovery codes left.');

    const again = await signInWith(details, codes[3]!);
    expect(again.response.status).toBe(400);
    expect(again.response.body.error.code).toBe('mfa_invalid_code');
    expect(again.client.cookie('ld_access')).toBeUndefined();

    expect((await used.client.get('/api/auth/mfa')).body.recoveryCodesRemaining).toBe(9);
    const other = await signInWith(details, codes[7]!);
    expect(other.response.body.recoveryCodesRemaining).toBe(8);
  });

  it('a TOTP sign-in says nothing about recovery codes', async () => {
    const { details, secret } = await sellerWithMfa();
    const { response } = await signInWith(details, await codeFor(secret, 0));
    expect(response.status).toBe(200);
    expect(response.body.recoveryCodesRemaining).toBeUndefined();
  });

  it('wrong recovery codes count against the same per-account limit as wrong TOTP codes', async () => {
    const { details, codes } = await sellerWithMfa();
    const answers: string[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      // A fresh challenge for every guess, as a thief with the password would open.
      answers.push(
        (await signInWith(details, `zzzzz-${String(attempt).padStart(5, '0')}`)).response.body.error
          .code,
      );
    }
    expect(answers.slice(0, 9).every((code) => code === 'mfa_invalid_code')).toBe(true);
    expect(answers[9]).toBe('rate_limited');
    const blocked = await signInWith(details, codes[0]!);
    expect(blocked.response.status).toBe(429);
  });

  it('regenerating needs a recent proof of identity and voids the old set', async () => {
    const { details, client, secret, codes } = await sellerWithMfa();
    await identity.db.query(
      `UPDATE sessions SET auth_time = now() - interval '1 hour'
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [details.email],
    );
    const stale = await client.post('/api/auth/mfa/recovery-codes');
    expect(stale.status).toBe(403);
    expect(stale.body.error.code).toBe('reauthentication_required');

    expect(
      (await client.post('/api/auth/reauthenticate', { code: await codeFor(secret, 0) })).status,
    ).toBe(200);
    const fresh = await client.post('/api/auth/mfa/recovery-codes');
    expect(fresh.status).toBe(200);
    const renewed = fresh.body.recoveryCodes as string[];
    expect(renewed).toHaveLength(10);
    expect(renewed.some((code) => codes.includes(code))).toBe(false);

    const old = await signInWith(details, codes[0]!);
    expect(old.response.body.error.code).toBe('mfa_invalid_code');
    const current = await signInWith(details, renewed[0]!);
    expect(current.response.status).toBe(200);
    expect(current.response.body.recoveryCodesRemaining).toBe(9);
  });

  it('a recovery code turns MFA off (a lost phone), and its codes go with it', async () => {
    const { details, client, codes } = await sellerWithMfa();
    expect((await client.post('/api/auth/mfa/unenroll', { code: codes[1] })).status).toBe(204);
    expect((await client.get('/api/auth/mfa')).body).toEqual({
      enabled: false,
      pending: false,
      recoveryCodesRemaining: 0,
    });
    const { rows } = await identity.db.query(
      'SELECT 1 FROM mfa_recovery_codes WHERE user_id = $1',
      [await userIdOf(details.email)],
    );
    expect(rows).toHaveLength(0);
  });

  it('no regenerating without MFA on', async () => {
    const details = makeSignUp();
    const client = browser();
    await client.post('/api/auth/sign-up', details);
    const response = await client.post('/api/auth/mfa/recovery-codes');
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('mfa_not_enrolled');
  });
});

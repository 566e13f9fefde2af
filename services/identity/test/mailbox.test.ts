import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@lockdrop/config';
import { buildApp } from '../src/app.js';
import { configSchema } from '../src/config.js';
import { Browser, latestMail, makeSignUp, startIdentity, type TestIdentity } from './support.js';

let identity: TestIdentity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity?.close());

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
    expect(page.body).toMatch(/<a href="http:\/\/lockdrop\.test\/api\/auth\/verify-email\?token=[\w-]+">/);
    expect(page.body.indexOf(second.email)).toBeLessThan(page.body.indexOf(first.email));
  });

  it('does not exist when SMTP is configured, nor in production', async () => {
    for (const overrides of [{ SMTP_URL: 'smtp://127.0.0.1:2525' }, { NODE_ENV: 'production' }]) {
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
    expect(response.statusCode).toBe(501);
    expect(response.json().error.code).toBe('oauth_not_configured');
    expect((await identity.app.inject({ url: '/api/auth/oauth/providers' })).json()).toEqual({ google: false });
  });
});

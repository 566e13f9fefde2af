import { connectBus, type Bus, type Subscription } from '@lockdrop/bus';
import { createEvent, type DomainEvent } from '@lockdrop/contracts';
import { testEnv } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, isSignedOut, makeSignUp, startIdentity, type TestIdentity } from './support.js';

let identity: TestIdentity;
let bus: Bus;
let watcher: Subscription;
const seen: DomainEvent[] = [];

beforeAll(async () => {
  identity = await startIdentity();
  bus = await connectBus({
    url: testEnv.natsUrl,
    namespace: identity.namespace,
    name: 'profile-test',
  });
  // Another service's view: whatever identity publishes about profiles arrives on the stream.
  watcher = await bus.subscribe({
    consumer: 'test.profile-watch',
    filter: 'profile.updated',
    pool: identity.db,
    handler: async (event) => {
      seen.push(event);
    },
  });
});
afterAll(async () => {
  await watcher?.stop();
  await bus?.close();
  await identity?.close();
});

async function signedIn(overrides: Record<string, unknown> = {}) {
  const client = new Browser(identity.app, { 'x-forwarded-for': '203.0.113.50' });
  const details = makeSignUp(overrides);
  const response = await client.post('/api/auth/sign-up', details);
  return { client, details, userId: response.body.user.id as string };
}

let refusalUser: ReturnType<typeof signedIn> | undefined;

describe('profile', () => {
  it('reads and updates name, avatar, payout details and role, and publishes profile.updated', async () => {
    const { client, userId } = await signedIn();
    const before = await client.get('/api/profile');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      id: userId,
      fullName: 'Ada Obi',
      avatarUrl: null,
      plan: 'free',
    });

    const patch = await client.request('PATCH', '/api/profile', {
      fullName: 'Ada Obi-Okafor',
      avatarUrl: 'https://cdn.example.com/ada.png',
      payoutMethod: 'bank',
      role: 'creator',
    });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({
      fullName: 'Ada Obi-Okafor',
      payoutMethod: 'bank',
      role: 'creator',
      plan: 'free',
    });

    const partial = await client.request('PATCH', '/api/profile', {
      payoutMethod: 'wise',
    });
    expect(partial.body).toMatchObject({
      fullName: 'Ada Obi-Okafor',
      role: 'creator',
      payoutMethod: 'wise',
    });
    expect((await client.get('/api/auth/session')).body.profile.fullName).toBe('Ada Obi-Okafor');

    await expect
      .poll(
        () =>
          seen
            .filter((event) => (event.data as { userId: string }).userId === userId)
            .map((event) => (event.data as { fullName: string }).fullName),
        {
          timeout: 10_000,
        },
      )
      .toEqual(['Ada Obi', 'Ada Obi-Okafor', 'Ada Obi-Okafor']);
  });

  it.each([
    ['the plan', { plan: 'business' }],
    ['a payout method that is coming soon', { payoutMethod: 'paypal' }],
    // Account numbers and payout e-mails belong to payments (encrypted), never to the profile.
    [
      'payout details',
      { payoutDetails: { method: 'bank', bankName: 'GTBank', accountNumber: '0123456789' } },
    ],
    ['a role outside onboarding', { role: 'admin' }],
    ['an avatar that is not http(s)', { avatarUrl: 'javascript:alert(1)' }],
    ['an empty name', { fullName: '  ' }],
  ])('refuses %s with 400', async (_case, body) => {
    const { client } = await (refusalUser ??= signedIn());
    const response = await client.request('PATCH', '/api/profile', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect((await client.get('/api/profile')).body.plan).toBe('free');
  });

  // Issue 29: settings uploads a picture to delivery and saves its path here.
  it('saves an uploaded avatar path, only the account’s own, with errors worded for people', async () => {
    const { client, userId } = await signedIn();
    const own = `/api/avatars/${userId}/${'a'.repeat(32)}.png`;
    const saved = await client.request('PATCH', '/api/profile', { avatarUrl: own });
    expect(saved.status).toBe(200);
    expect(saved.body.avatarUrl).toBe(own);

    const someoneElses = `/api/avatars/${crypto.randomUUID()}/${'b'.repeat(32)}.png`;
    const refused = await client.request('PATCH', '/api/profile', { avatarUrl: someoneElses });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'invalid_avatar',
      message: 'Please upload your own picture.',
    });

    const bad = await client.request('PATCH', '/api/profile', { avatarUrl: 'not a link' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].message).toBe(
      'Please upload a picture, or use a web address that starts with https://',
    );
    expect((await client.get('/api/profile')).body.avatarUrl).toBe(own);
  });

  it('needs a session', async () => {
    const response = await new Browser(identity.app).get('/api/profile');
    expect(response.status).toBe(401);
    expect(response.body.error.message).toBe('Auth session missing!');
  });

  it('follows plan.changed from billing, once, ignoring an older change that arrives late', async () => {
    const { client, userId } = await signedIn();
    const upgrade = createEvent(
      'plan.changed',
      { userId, plan: 'pro', previousPlan: 'free' },
      { correlationId: 'billing-1' },
    );
    const stale = createEvent(
      'plan.changed',
      { userId, plan: 'starter', previousPlan: 'free' },
      { correlationId: 'billing-0', occurredAt: new Date(Date.now() - 60_000) },
    );
    await bus.publish(upgrade);
    await bus.publish(upgrade);
    await bus.publish(stale);
    await expect
      .poll(async () => (await client.get('/api/profile')).body.plan, { timeout: 10_000 })
      .toBe('pro');
    await expect
      .poll(
        async () =>
          (
            await identity.db.query(
              `SELECT count(*)::int AS n FROM processed_events WHERE consumer = 'identity.plan-changed'`,
            )
          ).rows[0].n,
        {
          timeout: 10_000,
        },
      )
      .toBeGreaterThanOrEqual(2);
    expect((await client.get('/api/profile')).body.plan).toBe('pro');
    // The next access token carries the new plan.
    expect((await client.post('/api/auth/refresh')).body.user.plan).toBe('pro');
  });
});

describe('account deletion', () => {
  it('needs the password, then removes the account and signs out', async () => {
    const { client, details, userId } = await signedIn();
    const wrong = await client.request('DELETE', '/api/profile', { password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('invalid_password');

    const deleted = await client.request('DELETE', '/api/profile', { password: details.password });
    expect(deleted.status).toBe(204);
    expect(isSignedOut(await client.get('/api/auth/session'))).toBe(true);
    const other = new Browser(identity.app, { 'x-forwarded-for': '203.0.113.51' });
    expect(
      (await other.post('/api/auth/sign-in', { email: details.email, password: details.password }))
        .status,
    ).toBe(401);
    const { rows } = await identity.db.query(
      `SELECT type FROM outbox WHERE type = 'user.deleted' AND payload->'data'->>'userId' = $1`,
      [userId],
    );
    expect(rows).toHaveLength(1);
    // The address is free again.
    expect((await other.post('/api/auth/sign-up', { ...details })).status).toBe(201);
  });
});

describe('change password', () => {
  it('needs the current password and ends the other sessions', async () => {
    const { client, details } = await signedIn();
    const other = new Browser(identity.app, { 'x-forwarded-for': '203.0.113.52' });
    await other.post('/api/auth/sign-in', { email: details.email, password: details.password });
    const wrong = await client.post('/api/auth/password', {
      currentPassword: 'nope',
      newPassword: 'another good one',
    });
    expect(wrong.body.error.code).toBe('invalid_password');
    expect(
      (
        await client.post('/api/auth/password', {
          currentPassword: details.password,
          newPassword: 'short',
        })
      ).body.error.code,
    ).toBe('weak_password');
    expect(
      (
        await client.post('/api/auth/password', {
          currentPassword: details.password,
          newPassword: 'another good one',
        })
      ).status,
    ).toBe(204);
    expect((await client.get('/api/auth/session')).status).toBe(200);
    expect(isSignedOut(await other.get('/api/auth/session'))).toBe(true);
  });
});

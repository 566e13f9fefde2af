import { createHash } from 'node:crypto';
import { createTokenVerifier } from '@lockdrop/auth';
import { connectBus, type Bus, type Subscription } from '@lockdrop/bus';
import { API_KEY_PATTERN, createEvent, type DomainEvent } from '@lockdrop/contracts';
import { testEnv } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, makeSignUp, startIdentity, type TestIdentity } from './support.js';

let identity: TestIdentity;
let bus: Bus;
let watcher: Subscription;
const revocations: DomainEvent[] = [];

beforeAll(async () => {
  identity = await startIdentity();
  bus = await connectBus({
    url: testEnv.natsUrl,
    namespace: identity.namespace,
    name: 'keys-test',
  });
  watcher = await bus.subscribe({
    consumer: 'test.api-key-watch',
    filter: 'api_key.revoked',
    pool: identity.db,
    handler: async (event) => {
      revocations.push(event);
    },
  });
});
afterAll(async () => {
  await watcher?.stop();
  await bus?.close();
  await identity?.close();
});

async function seller(plan?: 'business') {
  const client = new Browser(identity.app, { 'x-forwarded-for': '203.0.113.77' });
  const response = await client.post('/api/auth/sign-up', makeSignUp());
  const userId = response.body.user.id as string;
  if (plan) {
    await bus.publish(
      createEvent('plan.changed', { userId, plan, previousPlan: 'free' }, { correlationId: 'b' }),
    );
    await expect
      .poll(async () => (await client.get('/api/profile')).body.plan, { timeout: 10_000 })
      .toBe(plan);
  }
  return { client, userId };
}

const createKey = (client: Browser, overrides: Record<string, unknown> = {}) =>
  client.post('/api/auth/api-keys', {
    name: 'Books sync',
    mode: 'test',
    scopes: ['sales:read', 'products:write', 'sales:read'],
    ...overrides,
  });

const introspect = (key: string, ip = '198.51.100.20') =>
  identity.app.inject({
    method: 'POST',
    url: '/internal/api-keys/introspect',
    headers: { 'x-forwarded-for': ip },
    payload: { key },
  });

describe('API keys', () => {
  it('gives a free seller test keys only, shows the secret once and stores only a keyed hash', async () => {
    const { client } = await seller();
    const live = await createKey(client, { mode: 'live' });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('plan_required');

    const created = await createKey(client);
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const secret = created.body.secret as string;
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(secret.startsWith('ld_test_')).toBe(true);
    expect(created.body.apiKey).toMatchObject({
      name: 'Books sync',
      mode: 'test',
      prefix: secret.slice(0, 12),
      scopes: ['products:write', 'sales:read'],
      lastUsedAt: null,
    });

    const listed = await client.get('/api/auth/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body.apiKeys).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const { rows } = await identity.db.query(
      `SELECT secret_hash, row_to_json(api_keys)::text AS whole FROM api_keys WHERE id = $1`,
      [created.body.apiKey.id],
    );
    expect(rows[0].whole).not.toContain(secret.slice(12));
    // Keyed: a plain sha256 of the key (what a leaked database could be checked against) is not it.
    expect(rows[0].secret_hash.equals(createHash('sha256').update(secret).digest())).toBe(false);
  });

  it("turns a Business seller's live key into a short-lived token every service verifies, which no session route accepts", async () => {
    const { client, userId } = await seller('business');
    const created = await createKey(client, { mode: 'live', scopes: ['products:read'] });
    expect(created.status).toBe(201);
    expect(created.body.secret.startsWith('ld_live_')).toBe(true);

    const answer = await introspect(created.body.secret);
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      keyId: created.body.apiKey.id,
      sellerId: userId,
      mode: 'live',
      scopes: ['products:read'],
      apiVersion: created.body.apiKey.apiVersion,
    });
    const verifier = createTokenVerifier({
      jwks: (await identity.app.inject('/.well-known/jwks.json')).json(),
    });
    expect(await verifier.verify(body.accessToken)).toMatchObject({
      id: userId,
      plan: 'business',
      apiKey: { id: created.body.apiKey.id, scopes: ['products:read'], mode: 'live' },
    });

    const asKey = new Browser(identity.app, { authorization: `Bearer ${body.accessToken}` });
    for (const url of ['/api/auth/session', '/api/profile', '/api/auth/api-keys'])
      expect((await asKey.get(url)).status).toBe(401);
    expect(
      (await asKey.post('/api/auth/api-keys', { name: 'x', mode: 'test', scopes: ['sales:read'] }))
        .status,
    ).toBe(401);
  });

  it('refuses a revoked key at once, tells the bus, and lets no other seller revoke it', async () => {
    const { client, userId } = await seller();
    const created = await createKey(client);
    const keyId = created.body.apiKey.id as string;
    expect((await introspect(created.body.secret)).statusCode).toBe(200);

    const { client: other } = await seller();
    const foreign = await other.request('DELETE', `/api/auth/api-keys/${keyId}`);
    expect(foreign.status).toBe(404);
    expect((await introspect(created.body.secret)).statusCode).toBe(200);

    expect((await client.request('DELETE', `/api/auth/api-keys/${keyId}`)).status).toBe(204);
    const refused = await introspect(created.body.secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('invalid_api_key');
    expect((await client.get('/api/auth/api-keys')).body.apiKeys).toEqual([]);
    expect((await client.request('DELETE', `/api/auth/api-keys/${keyId}`)).status).toBe(404);
    await expect
      .poll(
        () =>
          revocations.find(
            (event) =>
              event.type === 'api_key.revoked' && (event.data as { keyId: string }).keyId === keyId,
          )?.data,
        { timeout: 10_000 },
      )
      .toEqual({ keyId, userId });
  });

  it('asks a session that has not proved who it is recently to do so before it makes a key', async () => {
    const { client, userId } = await seller();
    // The session's last sign-in an hour ago (a stolen refresh cookie): no key comes of it.
    await identity.db.query(
      "UPDATE sessions SET auth_time = now() - interval '1 hour' WHERE user_id = $1",
      [userId],
    );
    await client.post('/api/auth/refresh');
    const refused = await createKey(client);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'reauthentication_required']);
    expect((await client.get('/api/auth/api-keys')).body.apiKeys).toEqual([]);
    // Listing and revoking stay open: they grant nothing a session does not already have.
    expect((await client.get('/api/auth/api-keys')).status).toBe(200);
  });

  it('records last use and its IP at most once a minute', async () => {
    const { client } = await seller();
    const created = await createKey(client);
    const keyId = created.body.apiKey.id as string;
    await introspect(created.body.secret, '198.51.100.1');
    const first = (await client.get('/api/auth/api-keys')).body.apiKeys[0];
    expect(first.lastUsedIp).toBe('198.51.100.1');
    expect(first.lastUsedAt).not.toBeNull();

    await introspect(created.body.secret, '198.51.100.2');
    expect((await client.get('/api/auth/api-keys')).body.apiKeys[0]).toMatchObject({
      lastUsedIp: '198.51.100.1',
      lastUsedAt: first.lastUsedAt,
    });

    await identity.db.query(
      `UPDATE api_keys SET last_used_at = now() - interval '61 seconds' WHERE id = $1`,
      [keyId],
    );
    await introspect(created.body.secret, '198.51.100.3');
    expect((await client.get('/api/auth/api-keys')).body.apiKeys[0].lastUsedIp).toBe(
      '198.51.100.3',
    );
  });

  it('ends a key at its expiry and a live key when the seller leaves Business', async () => {
    const { client, userId } = await seller('business');
    const past = await createKey(client, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.code).toBe('invalid_expiry');

    const expiring = await createKey(client, {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await introspect(expiring.body.secret)).statusCode).toBe(200);
    await identity.db.query(
      `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [expiring.body.apiKey.id],
    );
    expect((await introspect(expiring.body.secret)).statusCode).toBe(401);

    const live = await createKey(client, { mode: 'live' });
    const test = await createKey(client, { mode: 'test' });
    await bus.publish(
      createEvent(
        'plan.changed',
        { userId, plan: 'free', previousPlan: 'business' },
        { correlationId: 'd' },
      ),
    );
    await expect
      .poll(async () => (await introspect(live.body.secret)).statusCode, { timeout: 10_000 })
      .toBe(403);
    expect((await introspect(test.body.secret)).statusCode).toBe(200);
  });

  it('validates what it is given and never looks up a string not shaped like a key', async () => {
    const { client } = await seller();
    expect((await createKey(client, { scopes: [] })).status).toBe(400);
    expect((await createKey(client, { scopes: ['everything'] })).status).toBe(400);
    expect((await createKey(client, { name: '' })).status).toBe(400);
    expect((await createKey(client, { plan: 'business' })).status).toBe(400);
    expect((await new Browser(identity.app).get('/api/auth/api-keys')).status).toBe(401);
    const guessed = await introspect(`ld_live_${'A'.repeat(40)}`);
    expect(guessed.statusCode).toBe(401);
    expect((await introspect('not-a-key')).json().error.code).toBe('invalid_api_key');
  });
});

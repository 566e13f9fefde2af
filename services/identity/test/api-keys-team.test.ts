import { randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@lockdrop/bus';
import { createEvent, type PlanId } from '@lockdrop/contracts';
import { testEnv } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startIdentity,
  type TestIdentity,
  verifiedPerson,
  joinedMember,
  type Person,
} from './support.js';

/**
 * Issue 28: an admin has everything but ownership and the payout destination, so an admin
 * acting for the store manages its API keys — keys of the store (the seller account), which its
 * owner lists and revokes — and the store's audit log names who made or revoked each one.
 * Editors, support and accountants (a read-only member acts as one) are refused.
 */
let identity: TestIdentity;
let bus: Bus;

beforeAll(async () => {
  identity = await startIdentity();
  bus = await connectBus({ url: testEnv.natsUrl, namespace: identity.namespace, name: 'keys' });
});
afterAll(async () => {
  await bus?.close();
  await identity?.close();
});

const KEYS_CLIENT = { 'x-forwarded-for': '203.0.113.44', 'user-agent': 'KeysTest/1.0' };
const person = (plan: PlanId = 'free') => verifiedPerson(identity, plan, KEYS_CLIENT);

/** Invited with `role`, accepted, and acting for the owner's store. */
async function member(owner: Person, role: string): Promise<Person> {
  const joined = await joinedMember(identity, owner, role, KEYS_CLIENT);
  expect((await joined.client.post(`/api/auth/stores/${owner.userId}/act`)).status).toBe(200);
  return joined;
}

const introspect = async (secret: string) =>
  (
    await identity.app.inject({
      method: 'POST',
      url: '/internal/api-keys/introspect',
      payload: { key: secret },
    })
  ).json();

const keyIds = async (who: Person) =>
  (await who.client.get('/api/auth/api-keys')).body.apiKeys.map((key: { id: string }) => key.id);

describe('API keys of a store with a team', () => {
  it("an admin acting for the store makes, lists and revokes the store's keys; the owner sees and revokes them", async () => {
    const owner = await person('business');
    const admin = await member(owner, 'admin');

    // The admin's own account is on Free: a live key follows the store's plan, not theirs.
    const made = await admin.client.post('/api/auth/api-keys', {
      name: 'Store sync',
      mode: 'live',
      scopes: ['products:read', 'webhooks:write'],
    });
    expect(made.status).toBe(201);
    // The key is the store's: it stands for the seller account, never for the admin.
    expect(await introspect(made.body.secret)).toMatchObject({ sellerId: owner.userId });
    const { rows } = await identity.db.query('SELECT user_id FROM api_keys WHERE id = $1', [
      made.body.apiKey.id,
    ]);
    expect(rows).toEqual([{ user_id: owner.userId }]);
    // Nothing of it on the admin's own account.
    await admin.client.post(`/api/auth/stores/${admin.userId}/act`);
    expect(await keyIds(admin)).toEqual([]);
    await admin.client.post(`/api/auth/stores/${owner.userId}/act`);

    // The owner, on the account the store is, lists and revokes it; the admin sees the owner's.
    expect(await keyIds(owner)).toEqual([made.body.apiKey.id]);
    const ownersKey = await owner.client.post('/api/auth/api-keys', {
      name: 'Owner script',
      mode: 'test',
      scopes: ['sales:read'],
    });
    expect(ownersKey.status).toBe(201);
    expect((await keyIds(admin)).sort()).toEqual(
      [made.body.apiKey.id, ownersKey.body.apiKey.id].sort(),
    );
    const revokedByOwner = await owner.client.request(
      'DELETE',
      `/api/auth/api-keys/${made.body.apiKey.id}`,
    );
    expect(revokedByOwner.status).toBe(204);
    const revokedByAdmin = await admin.client.request(
      'DELETE',
      `/api/auth/api-keys/${ownersKey.body.apiKey.id}`,
    );
    expect(revokedByAdmin.status).toBe(204);
    expect(await keyIds(owner)).toEqual([]);

    // The store's audit log: who made and revoked which key (by name and prefix, never the
    // secret), from where.
    const audit = (await owner.client.get(`/api/auth/stores/${owner.userId}/audit`)).body.entries;
    const keyEntries = audit
      .filter((entry: { action: string }) => entry.action.startsWith('api_key.'))
      .map((entry: Record<string, unknown>) => [entry.action, entry.actorId, entry.target]);
    expect(keyEntries).toEqual([
      ['api_key.revoked', admin.userId, ownersKey.body.apiKey.id],
      ['api_key.revoked', owner.userId, made.body.apiKey.id],
      ['api_key.created', owner.userId, ownersKey.body.apiKey.id],
      ['api_key.created', admin.userId, made.body.apiKey.id],
    ]);
    const created = audit.find(
      (entry: { action: string; actorId: string }) =>
        entry.action === 'api_key.created' && entry.actorId === admin.userId,
    );
    expect(created).toMatchObject({
      details: {
        name: 'Store sync',
        mode: 'live',
        prefix: made.body.apiKey.prefix,
        scopes: ['products:read', 'webhooks:write'],
      },
      ip: '203.0.113.44',
      userAgent: 'KeysTest/1.0',
    });
    expect(JSON.stringify(audit)).not.toContain(made.body.secret);
  });

  it('refuses the editor, support and the accountant (and so a read-only member) every key route', async () => {
    const owner = await person('business');
    const kept = await owner.client.post('/api/auth/api-keys', {
      name: 'Kept',
      mode: 'test',
      scopes: ['products:read'],
    });
    expect(kept.status).toBe(201);
    const answers: Record<string, [number, string][]> = {};
    for (const role of ['editor', 'support', 'accountant']) {
      const someone = await member(owner, role);
      answers[role] = [
        await someone.client.get('/api/auth/api-keys'),
        await someone.client.post('/api/auth/api-keys', {
          name: 'Mine',
          mode: 'test',
          scopes: ['products:read'],
        }),
        await someone.client.request('DELETE', `/api/auth/api-keys/${kept.body.apiKey.id}`),
      ].map((answer) => [answer.status, answer.body.error?.code]);
    }
    const refused = Array.from({ length: 3 }, () => [403, 'not_allowed_for_role']);
    expect(answers).toEqual({ editor: refused, support: refused, accountant: refused });
    expect(await keyIds(owner)).toEqual([kept.body.apiKey.id]);
  });

  it("takes the worker's webhook endpoint changes into the store's audit log", async () => {
    const owner = await person('pro');
    const admin = await member(owner, 'admin');
    await bus.publish(
      createEvent(
        'audit.worker_action',
        {
          storeId: owner.userId,
          actorId: admin.userId,
          action: 'webhook_endpoint.created',
          target: randomUUID(),
          details: { url: 'https://hooks.example.com/lockdrop', mode: 'live' },
          ip: '198.51.100.9',
          userAgent: 'Mozilla/5.0 (admin)',
        },
        { correlationId: 'w' },
      ),
    );
    await expect
      .poll(
        async () =>
          (
            await owner.client.get(`/api/auth/stores/${owner.userId}/audit?actorId=${admin.userId}`)
          ).body.entries.map((entry: { action: string }) => entry.action),
        { timeout: 10_000 },
      )
      .toContain('webhook_endpoint.created');
  });
});

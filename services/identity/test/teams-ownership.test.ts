import { randomUUID } from 'node:crypto';
import { createTokenVerifier } from '@lockdrop/auth';
import { connectBus, type Bus, type Subscription } from '@lockdrop/bus';
import { createEvent, type DomainEvent, type PlanId } from '@lockdrop/contracts';
import { testEnv } from '@lockdrop/testing';
import { decodeJwt, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  latestMail,
  linkIn,
  startIdentity,
  type TestIdentity,
  verifiedPerson,
  joinedMember,
  type Person,
} from './support.js';

/**
 * Issue 28, the rest of teams: ownership transfer with re-authentication, seats after a
 * downgrade (read-only past the limit, the owner keeps or removes), and the audit log with the
 * money actions other services report over the bus.
 */
let identity: TestIdentity;
let bus: Bus;
let watcher: Subscription;
const storeEvents: DomainEvent[] = [];

beforeAll(async () => {
  identity = await startIdentity();
  bus = await connectBus({ url: testEnv.natsUrl, namespace: identity.namespace, name: 'owners' });
  watcher = await bus.subscribe({
    consumer: 'test.owner-watch',
    filter: 'store.*',
    pool: identity.db,
    handler: async (event) => {
      storeEvents.push(event);
    },
  });
});
afterAll(async () => {
  await watcher?.stop();
  await bus?.close();
  await identity?.close();
});

const person = (plan: PlanId = 'free', userAgent = 'TeamsTest/1.0') =>
  verifiedPerson(identity, plan, { 'x-forwarded-for': '203.0.113.28', 'user-agent': userAgent });
const join = (owner: Person, role: string) =>
  joinedMember(identity, owner, role, {
    'x-forwarded-for': '203.0.113.28',
    'user-agent': 'TeamsTest/1.0',
  });

const actFor = (member: Person, storeId: string) =>
  member.client.post(`/api/auth/stores/${storeId}/act`);

/** The session's last proof of identity, an hour ago: re-authentication is due. */
const staleAuth = (who: Person) =>
  identity.db.query(
    "UPDATE sessions SET auth_time = now() - interval '1 hour' WHERE user_id = $1",
    [who.userId],
  );

/** The plan billing decided, as identity hears it: `plan.changed` on the bus. */
async function changePlan(store: Person, plan: PlanId, previousPlan: PlanId) {
  await bus.publish(
    createEvent(
      'plan.changed',
      { userId: store.userId, plan, previousPlan },
      { correlationId: 'p' },
    ),
  );
  await expect
    .poll(
      async () =>
        (await identity.db.query('SELECT plan FROM profiles WHERE id = $1', [store.userId])).rows[0]
          .plan,
      { timeout: 10_000 },
    )
    .toBe(plan);
}

const teamOf = async (viewer: Person, storeId: string) =>
  (await viewer.client.get(`/api/auth/stores/${storeId}/members`)).body as {
    members: { userId: string; role: string; readOnly: boolean }[];
    seats: number | null;
  };

const internalRole = async (storeId: string, userId: string) =>
  (await identity.app.inject({ url: `/internal/stores/${storeId}/members/${userId}` })).json();

const publicOf = ({ kty, crv, x, kid }: JWK) => ({ kty, crv, x, kid });
const verify = (token: string) =>
  createTokenVerifier({ jwks: { keys: identity.signingKeys.map(publicOf) } }).verify(token);

describe('ownership transfer', () => {
  it('hands the store to an admin after re-authentication; the former owner stays as admin', async () => {
    const owner = await person('pro');
    const admin = await join(owner, 'admin');
    const editor = await join(owner, 'editor');
    const transfer = (by: Person, userId: string) =>
      by.client.post(`/api/auth/stores/${owner.userId}/owner`, { userId });

    // Only to an admin with full access, and only by the owner.
    expect((await transfer(owner, editor.userId)).body.error.code).toBe('invalid_transfer');
    await actFor(admin, owner.userId);
    const byAdmin = await transfer(admin, admin.userId);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.code).toBe('not_allowed_for_role');
    // Someone outside the store learns nothing of it, as from its other team routes.
    const outsider = await person();
    for (const answer of [
      await transfer(outsider, outsider.userId),
      await outsider.client.post(`/api/auth/stores/${owner.userId}/members/${editor.userId}/keep`),
    ])
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({
        status: 404,
        code: 'store_not_found',
      });

    // A session whose proof of identity is old must prove it again.
    await staleAuth(owner);
    await owner.client.post('/api/auth/refresh');
    const stale = await transfer(owner, admin.userId);
    expect(stale.status).toBe(403);
    expect(stale.body.error.code).toBe('reauthentication_required');
    expect(await internalRole(owner.userId, owner.userId)).toEqual({ active: true, role: 'owner' });
    const confirmed = await owner.client.post('/api/auth/reauthenticate', {
      password: owner.password,
    });
    expect(confirmed.status).toBe(200);

    const transferred = await transfer(owner, admin.userId);
    expect(transferred.status).toBe(200);
    // The former owner's own token now acts for the store their account is, as an admin.
    expect(transferred.body.acting).toMatchObject({ storeId: owner.userId, role: 'admin' });
    const formerToken = await verify(owner.client.cookie('ld_access')!);
    expect(formerToken).toMatchObject({
      id: owner.userId,
      actor: { id: owner.userId, role: 'admin' },
    });
    expect(await internalRole(owner.userId, owner.userId)).toEqual({ active: true, role: 'admin' });
    expect(await internalRole(owner.userId, admin.userId)).toEqual({ active: true, role: 'owner' });

    // The new owner's next token acts for the store as its owner, with the owner's own right.
    await admin.client.post('/api/auth/refresh');
    const ownerToken = await verify(admin.client.cookie('ld_access')!);
    expect(ownerToken).toMatchObject({
      id: owner.userId,
      actor: { id: admin.userId, role: 'owner' },
    });
    expect((await admin.client.get('/api/auth/session')).body.acting.rights).toContain(
      'store:owner',
    );
    const stores = (await admin.client.get('/api/auth/stores')).body.stores;
    expect(stores).toEqual([
      expect.objectContaining({ storeId: admin.userId, role: 'owner', own: true }),
      expect.objectContaining({ storeId: owner.userId, role: 'owner', own: false }),
    ]);

    // The team shows the new owner first and the former owner among the admins.
    const team = await teamOf(admin, owner.userId);
    expect(team.members.map((member) => [member.userId, member.role])).toEqual([
      [admin.userId, 'owner'],
      [editor.userId, 'editor'],
      [owner.userId, 'admin'],
    ]);
    // The former owner is on their own account for their profile, and an admin for the
    // store-wide keys (an admin manages them, issue 28).
    expect((await owner.client.get('/api/profile')).status).toBe(200);
    expect((await owner.client.get('/api/auth/api-keys')).status).toBe(200);
    // The new owner manages the store's keys while acting for it: a key made there is the
    // store's (its sales and products), not the new owner's own account's.
    const made = await admin.client.post('/api/auth/api-keys', {
      name: 'Store after transfer',
      mode: 'test',
      scopes: ['products:read'],
    });
    expect(made.status).toBe(201);
    const introspected = await identity.app.inject({
      method: 'POST',
      url: '/internal/api-keys/introspect',
      payload: { key: made.body.secret },
    });
    expect(introspected.json()).toMatchObject({ sellerId: owner.userId });
    expect(
      (await admin.client.get('/api/auth/api-keys')).body.apiKeys.map(
        (key: { id: string }) => key.id,
      ),
    ).toEqual([made.body.apiKey.id]);
    // Deleting the account the store is stays with nobody acting, the new owner included.
    const deletion = await admin.client.request('DELETE', '/api/profile', {
      password: admin.password,
    });
    expect(deletion.status).toBe(403);
    // Payments' sale e-mails follow the store: its profile now names the new owner's address.
    const { rows: profiles } = await identity.db.query(
      `SELECT payload->'data' AS data FROM outbox
       WHERE type = 'profile.updated' AND payload->'data'->>'userId' = $1
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [owner.userId],
    );
    expect(profiles[0].data).toMatchObject({ email: owner.email, contactEmail: admin.email });
    // The account the store is stays in it (its sign-in is the store's).
    const removeAccount = await admin.client.request(
      'DELETE',
      `/api/auth/stores/${owner.userId}/members/${owner.userId}`,
    );
    expect(removeAccount.body.error.code).toBe('store_account_member');

    // Events tell gateways; both sides are e-mailed; the audit log says who, when, from where.
    await expect
      .poll(() =>
        storeEvents.some(
          (event) =>
            event.type === 'store.ownership_transferred' &&
            (event.data as { toUserId: string }).toUserId === admin.userId,
        ),
      )
      .toBe(true);
    expect((await latestMail(identity.db, admin.email, /You now own/)).subject).toContain(
      'Ada Obi',
    );
    expect((await latestMail(identity.db, owner.email, /You handed/)).subject).toContain('Ada Obi');
    const audit = await admin.client.get(`/api/auth/stores/${owner.userId}/audit`);
    // Newest first: the key the new owner made (api_key.created), then the transfer.
    expect(audit.body.entries.map((entry: { action: string }) => entry.action).slice(0, 2)).toEqual(
      ['api_key.created', 'team.ownership_transferred'],
    );
    expect(audit.body.entries[1]).toMatchObject({
      action: 'team.ownership_transferred',
      actorId: owner.userId,
      target: admin.userId,
      ip: '203.0.113.28',
      userAgent: 'TeamsTest/1.0',
    });

    // An editor acting for the store is still refused them.
    await actFor(editor, owner.userId);
    expect((await editor.client.get('/api/auth/api-keys')).status).toBe(403);

    // And back: the new owner hands it to the former one, who is plain owner again.
    await admin.client.post('/api/auth/reauthenticate', { password: admin.password });
    const back = await admin.client.post(`/api/auth/stores/${owner.userId}/owner`, {
      userId: owner.userId,
    });
    expect(back.status).toBe(200);
    await owner.client.post('/api/auth/refresh');
    expect(decodeJwt(owner.client.cookie('ld_access')!).act).toBeUndefined();
    expect(await internalRole(owner.userId, admin.userId)).toEqual({ active: true, role: 'admin' });
  });
});

describe('seats after a downgrade', () => {
  it('leaves members past the seats read-only until the owner keeps or removes them', async () => {
    const owner = await person('business');
    const [first, second, third, fourth] = [
      await join(owner, 'editor'),
      await join(owner, 'support'),
      await join(owner, 'admin'),
      await join(owner, 'editor'),
    ];
    await actFor(fourth!, owner.userId);

    await changePlan(owner, 'pro', 'business');
    // Pro has 3 seats: the most recently joined is past them, with the accountant's read rights.
    await expect
      .poll(async () => (await teamOf(owner, owner.userId)).members.map((m) => m.readOnly))
      .toEqual([false, false, false, false, true]);
    expect(await internalRole(owner.userId, fourth!.userId)).toEqual({
      active: true,
      role: 'accountant',
    });
    // The member's next token says so (read-only is the accountant's rights).
    await fourth!.client.post('/api/auth/refresh');
    const session = (await fourth!.client.get('/api/auth/session')).body;
    expect(session.acting).toMatchObject({ role: 'accountant', readOnly: true });
    expect(session.acting.rights).not.toContain('products:write');
    await expect
      .poll(() =>
        storeEvents.some(
          (event) =>
            event.type === 'store.member_role_changed' &&
            (event.data as { userId: string }).userId === fourth!.userId,
        ),
      )
      .toBe(true);

    // New invites are refused while over the limit.
    const invite = await owner.client.post(`/api/auth/stores/${owner.userId}/invites`, {
      email: `more-${randomUUID()}@example.com`,
      role: 'editor',
    });
    expect(invite.status).toBe(403);
    expect(invite.body.error.code).toBe('seat_limit_reached');

    // Free: nobody has a seat, everyone is read-only.
    await changePlan(owner, 'free', 'pro');
    await expect
      .poll(async () =>
        (await teamOf(owner, owner.userId)).members.every((m) => m.role === 'owner' || m.readOnly),
      )
      .toBe(true);
    // An admin past the seats cannot manage the team either.
    await actFor(third!, owner.userId);
    const byAdmin = await third!.client.post(
      `/api/auth/stores/${owner.userId}/members/${first!.userId}/keep`,
    );
    expect(byAdmin.status).toBe(403);

    // Back to Pro: the owner chooses who stays. Keep needs a free seat among the kept.
    await changePlan(owner, 'pro', 'free');
    const keep = (member: Person) =>
      owner.client.post(`/api/auth/stores/${owner.userId}/members/${member.userId}/keep`);
    // On the way up the members fit no better (4 > 3): the oldest three are kept by order.
    await expect
      .poll(
        async () => (await teamOf(owner, owner.userId)).members.filter((m) => m.readOnly).length,
      )
      .toBe(1);
    const full = await keep(fourth!);
    expect(full.status).toBe(403);
    expect(full.body.error.code).toBe('seat_limit_reached');
    // Removing one brings the store within its seats: the rest have their role back.
    const removed = await owner.client.request(
      'DELETE',
      `/api/auth/stores/${owner.userId}/members/${second!.userId}`,
    );
    expect(removed.status).toBe(204);
    const after = await teamOf(owner, owner.userId);
    expect(after.members.filter((m) => m.readOnly)).toEqual([]);
    expect(await internalRole(owner.userId, fourth!.userId)).toEqual({
      active: true,
      role: 'editor',
    });
  });

  it('lets the owner keep a read-only member once a seat is free', async () => {
    const owner = await person('pro');
    const a = await join(owner, 'editor');
    const b = await join(owner, 'support');
    await changePlan(owner, 'free', 'pro');
    await expect
      .poll(
        async () => (await teamOf(owner, owner.userId)).members.filter((m) => m.readOnly).length,
      )
      .toBe(2);
    const keep = await owner.client.post(
      `/api/auth/stores/${owner.userId}/members/${a.userId}/keep`,
    );
    // Free has no seat to keep anyone in.
    expect(keep.status).toBe(403);
    await changePlan(owner, 'pro', 'free');
    await expect
      .poll(
        async () => (await teamOf(owner, owner.userId)).members.filter((m) => m.readOnly).length,
      )
      .toBe(0);
    expect(await internalRole(owner.userId, b.userId)).toEqual({ active: true, role: 'support' });
    // An invite accepted after a downgrade took its seat away is refused.
    const late = await person();
    await owner.client.post(`/api/auth/stores/${owner.userId}/invites`, {
      email: late.email,
      role: 'editor',
    });
    await changePlan(owner, 'free', 'pro');
    const link = linkIn(await latestMail(identity.db, late.email, /invited you/));
    const accepted = await late.client.post('/api/auth/invites/accept', {
      token: link.searchParams.get('token'),
    });
    expect(accepted.status).toBe(403);
    expect(accepted.body.error.code).toBe('seat_limit_reached');
  });
});

describe('the audit log', () => {
  it("pages the store's team and money actions, filters by member, and takes other services' actions once", async () => {
    const owner = await person('business');
    const support = await join(owner, 'support');
    const refund = createEvent(
      'audit.payments_action',
      {
        storeId: owner.userId,
        actorId: support.userId,
        action: 'refund.requested',
        target: randomUUID(),
        details: { amountMinor: 500, currency: 'USD' },
        ip: '198.51.100.7',
        userAgent: 'Mozilla/5.0 (support laptop)',
      },
      { correlationId: 'r' },
    );
    await bus.publish(refund);
    // A redelivery (the same event id) is one entry.
    await bus.publish(refund);
    const page = (query: string) =>
      owner.client.get(`/api/auth/stores/${owner.userId}/audit?${query}`);
    await expect
      .poll(async () => (await page(`actorId=${support.userId}`)).body.entries.length, {
        timeout: 10_000,
      })
      .toBe(2);
    const bySupport = (await page(`actorId=${support.userId}`)).body.entries;
    expect(bySupport.map((entry: { action: string }) => entry.action).sort()).toEqual([
      'refund.requested',
      'team.invite_accepted',
    ]);
    expect(
      bySupport.find((entry: { action: string }) => entry.action === 'refund.requested'),
    ).toMatchObject({
      actorEmail: support.email,
      ip: '198.51.100.7',
      userAgent: 'Mozilla/5.0 (support laptop)',
      details: { amountMinor: 500, currency: 'USD' },
    });

    // Pages of one: every entry once, newest first, then no further page.
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const body: { entries: { id: string }[]; nextCursor: string | null } = (
        await page(`limit=1${cursor ? `&cursor=${cursor}` : ''}`)
      ).body;
      seen.push(...body.entries.map((entry) => entry.id));
      cursor = body.nextCursor;
    }
    const all = (await page('limit=100')).body.entries.map((entry: { id: string }) => entry.id);
    expect(seen).toEqual(all);
    expect(all.length).toBe(3);
    expect((await page('cursor=nonsense')).status).toBe(400);

    // Members other than owner and admin do not see it.
    await actFor(support, owner.userId);
    expect((await support.client.get(`/api/auth/stores/${owner.userId}/audit`)).status).toBe(403);
  });
});

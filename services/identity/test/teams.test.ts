import { createTokenVerifier } from '@lockdrop/auth';
import { connectBus, type Bus, type Subscription } from '@lockdrop/bus';
import type { DomainEvent, PlanId } from '@lockdrop/contracts';
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

let identity: TestIdentity;
let bus: Bus;
let watcher: Subscription;
const memberEvents: DomainEvent[] = [];

beforeAll(async () => {
  identity = await startIdentity();
  bus = await connectBus({ url: testEnv.natsUrl, namespace: identity.namespace, name: 'teams' });
  watcher = await bus.subscribe({
    consumer: 'test.team-watch',
    filter: 'store.*',
    pool: identity.db,
    handler: async (event) => {
      memberEvents.push(event);
    },
  });
});
afterAll(async () => {
  await watcher?.stop();
  await bus?.close();
  await identity?.close();
});

const person = (plan: PlanId = 'free') => verifiedPerson(identity, plan);

const invite = (owner: Person, email: string, role = 'editor') =>
  owner.client.post(`/api/auth/stores/${owner.userId}/invites`, { email, role });

/** The token of the newest invite e-mailed to `email`. */
async function inviteToken(email: string): Promise<string> {
  const mail = await latestMail(identity.db, email, /invited you/);
  const link = linkIn(mail);
  expect(link.pathname).toBe('/invite');
  return link.searchParams.get('token')!;
}

const join = (owner: Person, role = 'editor') => joinedMember(identity, owner, role);

const verifier = () => createTokenVerifier({ jwks: { keys: identity.signingKeys.map(publicOf) } });
const publicOf = ({ kty, crv, x, kid }: JWK) => ({ kty, crv, x, kid });

describe('invites', () => {
  it('invites by e-mail, single use, bound to that address, and the member joins with the role', async () => {
    const owner = await person('pro');
    const member = await person();
    const stranger = await person();
    const sent = await invite(owner, member.email.toUpperCase(), 'support');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ email: member.email, role: 'support' });
    const hours = (Date.parse(sent.body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);
    const token = await inviteToken(member.email);
    // Only the token's hash is stored.
    const stored = await identity.db.query('SELECT token_hash FROM store_invites WHERE id = $1', [
      sent.body.id,
    ]);
    expect(stored.rows[0].token_hash).not.toContain(token);

    // Someone else who got hold of the link cannot take it.
    const wrong = await stranger.client.post('/api/auth/invites/accept', { token });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('invite_wrong_email');

    const accepted = await member.client.post('/api/auth/invites/accept', { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ storeId: owner.userId, storeName: 'Ada Obi', role: 'support' });
    // Single use.
    const again = await member.client.post('/api/auth/invites/accept', { token });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invite_invalid');

    const team = await owner.client.get(`/api/auth/stores/${owner.userId}/members`);
    expect(team.status).toBe(200);
    expect(team.body.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'support']);
    expect(team.body).toMatchObject({ invites: [], seats: 3, seatsUsed: 1 });

    const stores = await member.client.get('/api/auth/stores');
    expect(stores.body.stores).toEqual([
      expect.objectContaining({ storeId: member.userId, role: 'owner', own: true }),
      expect.objectContaining({ storeId: owner.userId, role: 'support', own: false }),
    ]);
  });

  it("refuses an expired invite; taking a live one confirms the invitee's address", async () => {
    const owner = await person('pro');
    const member = await person();
    const sent = await invite(owner, member.email);
    const token = await inviteToken(member.email);
    await identity.db.query(
      "UPDATE store_invites SET expires_at = now() - interval '1 second' WHERE id = $1",
      [sent.body.id],
    );
    const expired = await member.client.post('/api/auth/invites/accept', { token });
    expect(expired.status).toBe(400);
    expect(expired.body.error.code).toBe('invite_expired');
    // An expired invite frees its seat and is no longer listed.
    const team = await owner.client.get(`/api/auth/stores/${owner.userId}/members`);
    expect(team.body).toMatchObject({ invites: [], seatsUsed: 0 });

    // Signing up to accept: the link was mailed to that address alone, so taking it confirms it.
    const fresh = await person();
    await identity.db.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [
      fresh.userId,
    ]);
    await invite(owner, fresh.email);
    const joined = await fresh.client.post('/api/auth/invites/accept', {
      token: await inviteToken(fresh.email),
    });
    expect(joined.status).toBe(200);
    const { rows } = await identity.db.query('SELECT email_verified_at FROM users WHERE id = $1', [
      fresh.userId,
    ]);
    expect(rows[0].email_verified_at).not.toBeNull();
  });

  it('enforces the plan seats on invite, counting pending invites', async () => {
    const free = await person('free');
    const none = await invite(free, 'someone@example.com');
    expect(none.status).toBe(403);
    expect(none.body.error.code).toBe('seat_limit_reached');

    const pro = await person('pro');
    await join(pro, 'editor');
    expect((await invite(pro, 'two@example.com')).status).toBe(201);
    expect((await invite(pro, 'three@example.com')).status).toBe(201);
    const fourth = await invite(pro, 'four@example.com');
    expect(fourth.status).toBe(403);
    expect(fourth.body.error).toMatchObject({ code: 'seat_limit_reached', details: { seats: 3 } });

    const business = await person('business');
    for (let i = 0; i < 5; i += 1)
      expect((await invite(business, `seat${i}@example.com`)).status).toBe(201);
  });

  it('revokes a pending invite: its link stops working and its seat is free again', async () => {
    const owner = await person('pro');
    const member = await person();
    const sent = await invite(owner, member.email);
    const token = await inviteToken(member.email);
    const outsider = await person('pro');
    // Another store's owner cannot revoke it (nor see the store).
    const foreign = await outsider.client.request(
      'DELETE',
      `/api/auth/stores/${owner.userId}/invites/${sent.body.id}`,
    );
    expect(foreign.status).toBe(404);
    const revoked = await owner.client.request(
      'DELETE',
      `/api/auth/stores/${owner.userId}/invites/${sent.body.id}`,
    );
    expect(revoked.status).toBe(204);
    const accept = await member.client.post('/api/auth/invites/accept', { token });
    expect(accept.status).toBe(400);
    expect(accept.body.error.code).toBe('invite_invalid');
  });
});

describe('roles and acting for a store', () => {
  it('switches a member into the store: the token is the store with the member as actor', async () => {
    const owner = await person('pro');
    const editor = await join(owner, 'editor');
    const switched = await editor.client.post(`/api/auth/stores/${owner.userId}/act`);
    expect(switched.status).toBe(200);
    expect(switched.body.user.id).toBe(editor.userId);
    expect(switched.body.acting).toMatchObject({
      storeId: owner.userId,
      role: 'editor',
      rights: expect.arrayContaining(['products:write']),
    });
    const token = editor.client.cookie('ld_access')!;
    expect(decodeJwt(token)).toMatchObject({ sub: owner.userId, plan: 'pro' });
    const user = await verifier().verify(token);
    expect(user).toMatchObject({ id: owner.userId, actor: { id: editor.userId, role: 'editor' } });

    // The session says who is acting for whom, and refresh keeps acting while the membership lasts.
    expect((await editor.client.get('/api/auth/session')).body.acting.storeId).toBe(owner.userId);
    await editor.client.post('/api/auth/refresh');
    expect(decodeJwt(editor.client.cookie('ld_access')!).act).toEqual({
      sub: editor.userId,
      role: 'editor',
    });

    // Identity's own routes are the person's: refused while acting.
    const profile = await editor.client.get('/api/profile');
    expect(profile.status).toBe(403);
    expect(profile.body.error.code).toBe('not_allowed_for_role');
    expect((await editor.client.get('/api/auth/api-keys')).status).toBe(403);

    // Switching back is the person's own token again.
    const back = await editor.client.post(`/api/auth/stores/${editor.userId}/act`);
    expect(back.status).toBe(200);
    expect(back.body.acting).toBeUndefined();
    expect(decodeJwt(editor.client.cookie('ld_access')!)).toMatchObject({ sub: editor.userId });
    expect(decodeJwt(editor.client.cookie('ld_access')!).act).toBeUndefined();
    // The acting token from before the switch no longer stands for the session at identity.
    const stale = await editor.client.get('/api/auth/stores', {
      authorization: `Bearer ${token}`,
    });
    expect(stale.status).toBe(401);
  });

  it('refuses to act for a store one does not belong to', async () => {
    const owner = await person('pro');
    const stranger = await person();
    const refused = await stranger.client.post(`/api/auth/stores/${owner.userId}/act`);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('store_not_found');
    expect(decodeJwt(stranger.client.cookie('ld_access')!).sub).toBe(stranger.userId);
  });

  it('lets the owner and an admin manage the team, never an editor, and never to owner', async () => {
    const owner = await person('business');
    const admin = await join(owner, 'admin');
    const editor = await join(owner, 'editor');
    const base = `/api/auth/stores/${owner.userId}/members`;

    const byEditor = await editor.client.request('PATCH', `${base}/${admin.userId}`, {
      role: 'support',
    });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe('not_allowed_for_role');
    expect(
      (
        await editor.client.post(`/api/auth/stores/${owner.userId}/invites`, {
          email: 'x@example.com',
          role: 'admin',
        })
      ).status,
    ).toBe(403);
    expect((await editor.client.get(`/api/auth/stores/${owner.userId}/audit`)).status).toBe(403);

    const toOwner = await admin.client.request('PATCH', `${base}/${editor.userId}`, {
      role: 'owner',
    });
    expect(toOwner.status).toBe(400);
    const changed = await admin.client.request('PATCH', `${base}/${editor.userId}`, {
      role: 'accountant',
    });
    expect(changed.status).toBe(200);
    // The owner has no membership to change or remove.
    expect(
      (await admin.client.request('PATCH', `${base}/${owner.userId}`, { role: 'editor' })).status,
    ).toBe(404);
    expect((await admin.client.request('DELETE', `${base}/${owner.userId}`)).status).toBe(404);

    await expect
      .poll(() =>
        memberEvents.some(
          (event) =>
            event.type === 'store.member_role_changed' &&
            (event.data as { userId: string }).userId === editor.userId,
        ),
      )
      .toBe(true);

    // The audit log: who did what, when and from where, shown to owner and admin.
    const audit = await owner.client.get(`/api/auth/stores/${owner.userId}/audit`);
    expect(audit.status).toBe(200);
    const actions = audit.body.entries.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['team.invite_sent', 'team.invite_accepted', 'team.role_changed']),
    );
    const roleChange = audit.body.entries.find(
      (entry: { action: string }) => entry.action === 'team.role_changed',
    );
    expect(roleChange).toMatchObject({
      actorId: admin.userId,
      actorEmail: admin.email,
      target: editor.userId,
      details: { from: 'editor', to: 'accountant' },
      ip: '203.0.113.9',
    });
  });
});

describe('removal', () => {
  it('ends the membership at once: event out, session back to its own account, no more acting', async () => {
    const owner = await person('pro');
    const editor = await join(owner, 'editor');
    await editor.client.post(`/api/auth/stores/${owner.userId}/act`);
    const actingToken = editor.client.cookie('ld_access')!;

    const internal = () =>
      identity.app.inject({ url: `/internal/stores/${owner.userId}/members/${editor.userId}` });
    expect((await internal()).json()).toEqual({ active: true, role: 'editor' });

    const removed = await owner.client.request(
      'DELETE',
      `/api/auth/stores/${owner.userId}/members/${editor.userId}`,
    );
    expect(removed.status).toBe(204);
    expect((await internal()).json()).toEqual({ active: false, role: null });
    await expect
      .poll(() =>
        memberEvents.some(
          (event) =>
            event.type === 'store.member_removed' &&
            (event.data as { userId: string }).userId === editor.userId,
        ),
      )
      .toBe(true);

    // The old acting token no longer stands for the session here...
    expect(
      (await editor.client.get('/api/auth/stores', { authorization: `Bearer ${actingToken}` }))
        .status,
    ).toBe(401);
    // ...refresh gives the person's own account, and acting again is refused.
    const refreshed = await editor.client.post('/api/auth/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.acting).toBeUndefined();
    expect(decodeJwt(editor.client.cookie('ld_access')!).sub).toBe(editor.userId);
    expect((await editor.client.post(`/api/auth/stores/${owner.userId}/act`)).status).toBe(404);
    const audit = await owner.client.get(`/api/auth/stores/${owner.userId}/audit`);
    expect(audit.body.entries[0]).toMatchObject({
      action: 'team.member_removed',
      target: editor.userId,
    });
  });

  it('lets a member leave a store', async () => {
    const owner = await person('pro');
    const member = await join(owner, 'support');
    const left = await member.client.request(
      'DELETE',
      `/api/auth/stores/${owner.userId}/members/${member.userId}`,
    );
    expect(left.status).toBe(204);
    const stores = await member.client.get('/api/auth/stores');
    expect(stores.body.stores).toHaveLength(1);
    const team = await owner.client.get(`/api/auth/stores/${owner.userId}/members`);
    expect(team.body.members).toHaveLength(1);
  });
});

import { randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@lockdrop/bus';
import { createEvent, type PlanId } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import { testEnv } from '@lockdrop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Person } from './people.js';
import { startTeamStack } from './team-stack.js';

// Team seats (issue 28) through the real gateway: identity mints acting tokens, catalog,
// delivery and payments enforce the rights (libs/auth), and the gateway refuses a removed
// member's still-valid token. Two gateway replicas: A forwards the removal, B learns it from
// the bus (its membership cache is 60 s, so only the event can explain a refusal there).
let stack: Awaited<ReturnType<typeof startTeamStack>>;
let db: Pool;
let replicaA: string;
let replicaB: string;
let bus: Bus;
const signUp = (plan?: string) => stack.people.signUp(plan);
const member = (owner: Person, role: string) => stack.people.member(owner, role);
const upload = (person: Person) => stack.people.upload(person);

beforeAll(async () => {
  stack = await startTeamStack({ label: 'teams', payments: true });
  db = stack.db;
  replicaA = await stack.startGateway('a', { TEAM_MEMBERSHIP_CACHE_SECONDS: '5' });
  replicaB = await stack.startGateway('b', { TEAM_MEMBERSHIP_CACHE_SECONDS: '60' });
  bus = await connectBus({ url: testEnv.natsUrl, namespace: stack.namespace, name: 'teams-stack' });
}, 120_000);

afterAll(async () => {
  await bus?.close();
  await stack?.close();
});

const productBody = (fileId: string) => ({
  title: 'Team notes',
  description: 'Made by the team.',
  price: '5.00',
  currency: 'USD',
  fileId,
  previewEnabled: false,
  pricing: { type: 'one_time' },
});

describe('members acting for a store, through the gateway', () => {
  it('lets an editor make products for the store but not refund or read payouts', async () => {
    const owner = await signUp('pro');
    const editor = await member(owner, 'editor');

    const fileId = await upload(editor);
    const created = await editor.call('/api/products', { body: productBody(fileId) });
    expect(created.status).toBe(201);
    // The product is the store's: the owner sees it among theirs.
    const mine = await owner.call('/api/products/mine');
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).toContain(created.body.id);

    // Discount codes are an editor's too.
    expect((await editor.call('/api/discount-codes')).status).toBe(200);

    const refund = await editor.call(`/api/purchases/${randomUUID()}/refund`, { body: {} });
    expect(refund.status).toBe(403);
    expect(refund.body.error.code).toBe('not_allowed_for_role');
    for (const pathname of [
      '/api/payouts/balances',
      '/api/payouts/destination',
      '/api/purchases/sales',
      // The owner's own buyer library and billing are never a store right.
      '/api/purchases',
      '/api/billing/plan',
    ]) {
      const refused = await editor.call(pathname);
      expect({ pathname, status: refused.status }).toEqual({ pathname, status: 403 });
      expect(refused.body.error.code).toBe('not_allowed_for_role');
    }
  });

  it('lets an accountant read sales and payouts but not create products', async () => {
    const owner = await signUp('pro');
    const ownFile = await upload(owner);
    const accountant = await member(owner, 'accountant');
    const sales = await accountant.call('/api/purchases/sales');
    expect(sales.status).toBe(200);
    expect((await accountant.call('/api/payouts/balances')).status).toBe(200);
    expect((await accountant.call('/api/discount-codes')).status).toBe(403);
    const create = await accountant.call('/api/products', { body: productBody(ownFile) });
    expect(create.status).toBe(403);
    expect(create.body.error).toMatchObject({
      code: 'not_allowed_for_role',
      details: { role: 'accountant', requiredRight: 'products:write' },
    });
  });

  it("refuses a removed member's still-valid token on the next request, on every replica", async () => {
    const owner = await signUp('pro');
    const editor = await member(owner, 'editor');
    const token = editor.accessToken;
    // Both replicas have seen (and cached) the membership.
    expect((await editor.call('/api/products/mine')).status).toBe(200);
    expect((await editor.call('/api/products/mine', { origin: replicaB })).status).toBe(200);
    // Every service's store routes the editor may use, before the removal...
    const storeRoutes = ['/api/products/mine', '/api/uploads/usage', '/api/discount-codes'];
    for (const pathname of storeRoutes)
      expect({ pathname, status: (await editor.call(pathname)).status }).toEqual({
        pathname,
        status: 200,
      });

    const removed = await owner.call(`/api/auth/stores/${owner.userId}/members/${editor.userId}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    // The same token, well before its expiry.
    expect(editor.accessToken).toBe(token);
    const next = await editor.call('/api/products/mine');
    expect(next.status).toBe(403);
    expect(next.body.error.code).toBe('store_membership_ended');
    // ...and after it, in catalog, delivery and payments alike (the token would pass each
    // service's own check until it expires: the gateway refuses it before them).
    for (const pathname of storeRoutes) {
      const refused = await editor.call(pathname);
      expect({ pathname, status: refused.status, code: refused.body.error?.code }).toEqual({
        pathname,
        status: 403,
        code: 'store_membership_ended',
      });
    }
    await expect
      .poll(async () => (await editor.call('/api/products/mine', { origin: replicaB })).status, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(403);

    // Refresh takes the person back to their own account.
    const refreshed = await editor.call('/api/auth/refresh', { body: {} });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.acting).toBeUndefined();
    const own = await editor.call('/api/products/mine');
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain('Team notes');
  });

  it('refuses to act for a store one does not belong to', async () => {
    const owner = await signUp('pro');
    const stranger = await signUp();
    const refused = await stranger.call(`/api/auth/stores/${owner.userId}/act`, { body: {} });
    expect(refused.status).toBe(404);
    // Still their own account.
    const session = await stranger.call('/api/auth/session');
    expect(session.body.acting).toBeUndefined();
    expect(session.body.user.id).toBe(stranger.userId);
  });
});

/** Billing decided a plan: identity hears `plan.changed` and applies the seats. */
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
        (await db.query('SELECT plan FROM identity.profiles WHERE id = $1', [store.userId])).rows[0]
          .plan,
      { timeout: 10_000 },
    )
    .toBe(plan);
}

describe('a downgrade and a transfer, through the gateway', () => {
  it('leaves members read-only after a downgrade to Free: reads yes, writes refused by every service', async () => {
    const owner = await signUp('pro');
    const ownFile = await upload(owner);
    const editor = await member(owner, 'editor');
    const fileId = await upload(editor);
    await changePlan(owner, 'free', 'pro');
    // The editor's token from before still says editor: refused on the next request (role changed).
    await expect
      .poll(async () => (await editor.call('/api/products/mine')).body.error?.code, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('store_membership_ended');
    // Switching in again gives the read-only access: the accountant's read rights.
    const acting = await editor.call(`/api/auth/stores/${owner.userId}/act`, { body: {} });
    expect(acting.body.acting).toMatchObject({ role: 'accountant', readOnly: true });
    expect((await editor.call('/api/purchases/sales')).status).toBe(200);
    expect((await editor.call('/api/payouts/balances')).status).toBe(200);
    for (const [pathname, body] of [
      ['/api/products', productBody(ownFile)],
      ['/api/discount-codes', { code: 'NOPE10', kind: 'percent', percentOff: 10 }],
    ] as const) {
      const refused = await editor.call(pathname, { body });
      expect({ pathname, status: refused.status, code: refused.body.error.code }).toEqual({
        pathname,
        status: 403,
        code: 'not_allowed_for_role',
      });
    }
    const deleteFile = await editor.call(`/api/uploads/${fileId}`, { method: 'DELETE' });
    expect(deleteFile.status).toBe(403);
    // The owner keeps the editor once a seat exists again: writes work at once after a switch.
    await changePlan(owner, 'pro', 'free');
    await expect
      .poll(async () => (await editor.call('/api/purchases/sales')).body.error?.code, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('store_membership_ended');
    await editor.call(`/api/auth/stores/${owner.userId}/act`, { body: {} });
    expect((await editor.call('/api/products', { body: productBody(fileId) })).status).toBe(201);
  });

  it("after a transfer the former owner's older tokens stop on every replica; the new owner has the owner's rights", async () => {
    const owner = await signUp('pro');
    const admin = await member(owner, 'admin');
    // The former owner's second browser, signed in before the transfer.
    const otherBrowser = new Person(owner.email, replicaA);
    otherBrowser.userId = owner.userId;
    const signedIn = await otherBrowser.call('/api/auth/sign-in', {
      body: { email: owner.email, password: 'correct horse battery' },
    });
    expect(signedIn.status).toBe(200);
    expect((await otherBrowser.call('/api/payouts/destination', { origin: replicaB })).status).toBe(
      200,
    );

    const transferred = await owner.call(`/api/auth/stores/${owner.userId}/owner`, {
      body: { userId: admin.userId },
    });
    expect(transferred.status).toBe(200);
    expect(transferred.body.acting).toMatchObject({ role: 'admin' });
    // This browser got its admin token with the answer: the owner's things are refused to it.
    const mine = await owner.call('/api/payouts/destination');
    expect(mine.body.error.code).toBe('not_allowed_for_role');
    expect((await owner.call('/api/products/mine')).status).toBe(200);
    // The other browser's owner token, well before its expiry, stops on both replicas.
    for (const origin of [replicaA, replicaB])
      await expect
        .poll(
          async () =>
            (await otherBrowser.call('/api/payouts/destination', { origin })).body.error?.code,
          { timeout: 10_000, interval: 100 },
        )
        .toBe('store_membership_ended');
    // Its refresh makes it the admin it now is.
    const refreshed = await otherBrowser.call('/api/auth/refresh', { body: {} });
    expect(refreshed.body.acting).toMatchObject({ storeId: owner.userId, role: 'admin' });

    // The new owner: their admin token stops; switched in again, they are the store's owner.
    await expect
      .poll(async () => (await admin.call('/api/products/mine')).body.error?.code, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('store_membership_ended');
    const acting = await admin.call(`/api/auth/stores/${owner.userId}/act`, { body: {} });
    expect(acting.body.acting).toMatchObject({ role: 'owner' });
    expect((await admin.call('/api/payouts/destination')).status).toBe(200);
    expect((await admin.call('/api/billing/plan')).status).toBe(200);
    // Everything else that speaks for the store is the new owner's too; the former owner (an
    // admin now) keeps the brand and its logo (an admin's, issue 28) but not the sale e-mails'
    // setting (the owner's own inbox).
    const logo = new FormData();
    logo.append('file', new Blob([Buffer.from('not an image')]), 'logo.png');
    const answers: Array<[string, number, string | undefined]> = [];
    for (const [pathname, init] of [
      ['/api/brand', {}],
      ['/api/purchases/sale-emails', {}],
      ['/api/brand-logos', { form: logo }],
    ] as const) {
      const byNewOwner = await admin.call(pathname, init);
      const byFormerOwner = await owner.call(pathname, init);
      answers.push([pathname, byNewOwner.status, byFormerOwner.body.error?.code]);
    }
    expect(answers).toEqual([
      ['/api/brand', 200, undefined],
      ['/api/purchases/sale-emails', 200, 'not_allowed_for_role'],
      // Past the rights, refused for its bytes (not an image).
      ['/api/brand-logos', 400, 'invalid_image'],
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sell,
  startHarness,
  waitFor,
  type Harness,
  type SeenEvent,
  type TestUser,
  callAs,
} from './support.js';

/**
 * Issue 28: payments reports every money action to identity's audit log
 * (`audit.payments_action`, in the action's own transaction) naming the person — a member acting
 * for the store, not the store — with the request's address and browser. And the owner's own
 * right (`store:owner`): billing and where payouts go stay with the owner, also an owner who
 * received the store by a transfer; withdrawing is an admin's too.
 */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ REAUTH_MAX_AGE_SECONDS: '600', PAYOUT_HOLD_HOURS: '0' });
});
afterAll(() => harness?.close());

const newStore = (): TestUser => {
  const id = randomUUID();
  return { id, email: `store-${id.slice(0, 8)}@example.com`, plan: 'pro' };
};
const actingFor = (
  store: TestUser,
  role: 'owner' | 'admin' | 'editor' | 'support' | 'accountant',
): TestUser => ({
  ...store,
  actor: { id: randomUUID(), role },
});

const call = (user: TestUser, method: string, path: string, body?: unknown) =>
  callAs(harness, user, method, path, body, {
    'user-agent': 'AuditTest/2.0',
    'x-forwarded-for': '198.51.100.44',
  });

const audited = (storeId: string, action: string) =>
  harness.published.filter(
    (event): event is SeenEvent =>
      event.type === 'audit.payments_action' &&
      event.data.storeId === storeId &&
      event.data.action === action,
  );

async function auditedOnce(storeId: string, action: string) {
  await waitFor(() => audited(storeId, action).length > 0);
  const events = audited(storeId, action);
  expect(events).toHaveLength(1);
  return events[0]!.data;
}

describe('money actions in the audit log', () => {
  it('a refund by a support member names the member, the sale and where it came from', async () => {
    const store = newStore();
    const support = actingFor(store, 'support');
    const sale = await sell(harness, { ownerId: store.id, currency: 'USD', priceMinor: 2_500 });
    const refunded = await call(support, 'POST', `/api/purchases/${sale.purchaseId}/refund`);
    expect(refunded.status).toBe(200);
    expect(await auditedOnce(store.id, 'refund.requested')).toMatchObject({
      actorId: support.actor!.id,
      target: sale.purchaseId,
      details: { amountMinor: 2_500, currency: 'USD' },
      userAgent: 'AuditTest/2.0',
    });
    // A refused refund (an editor may not) is no action and leaves no entry.
    const other = await sell(harness, { ownerId: store.id, currency: 'USD', priceMinor: 900 });
    const refused = await call(
      actingFor(store, 'editor'),
      'POST',
      `/api/purchases/${other.purchaseId}/refund`,
    );
    expect(refused.status).toBe(403);
    // Watermark: a later action by the owner is seen; the refused one never was.
    await call(store, 'POST', '/api/discount-codes', {
      code: `W${randomUUID().slice(0, 6)}`.toUpperCase(),
      kind: 'percent',
      percentOff: 5,
    });
    await waitFor(() => audited(store.id, 'discount.created').length > 0);
    expect(
      audited(store.id, 'refund.requested').filter((e) => e.data.target === other.purchaseId),
    ).toEqual([]);
  });

  it('discount changes by an editor: created, updated, deleted', async () => {
    const store = newStore();
    const editor = actingFor(store, 'editor');
    const code = `TEAM${randomUUID().slice(0, 6)}`.toUpperCase();
    const created = await call(editor, 'POST', '/api/discount-codes', {
      code,
      kind: 'percent',
      percentOff: 20,
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const updated = await call(editor, 'PUT', `/api/discount-codes/${id}`, {
      code,
      kind: 'percent',
      percentOff: 25,
    });
    expect(updated.status).toBe(200);
    expect((await call(editor, 'DELETE', `/api/discount-codes/${id}`)).status).toBe(204);
    for (const action of ['discount.created', 'discount.updated', 'discount.deleted'])
      expect(await auditedOnce(store.id, action)).toMatchObject({
        actorId: editor.actor!.id,
        target: id,
        details: { code },
      });
  });

  it('the owner sets where payouts go; an admin withdraws; both are logged', async () => {
    const store = newStore();
    const admin = actingFor(store, 'admin');
    const wise = { method: 'wise', email: 'owner@example.com', accountId: '48213377' };
    // An admin manages everything but the payout destination (and billing).
    for (const [method, path, body] of [
      ['PUT', '/api/payouts/destination', wise],
      ['GET', '/api/payouts/destination', undefined],
      ['GET', '/api/billing/plan', undefined],
    ] as const) {
      const refused = await call(admin, method, path, body);
      expect({ path, status: refused.status }).toEqual({ path, status: 403 });
      expect((await refused.json()).error.code).toBe('not_allowed_for_role');
    }
    const saved = await call(store, 'PUT', '/api/payouts/destination', wise);
    expect(saved.status).toBe(200);
    expect(await auditedOnce(store.id, 'payout_destination.added')).toMatchObject({
      actorId: store.id,
      target: 'Wise o•••@example.com',
    });

    const sale = await sell(harness, { ownerId: store.id, currency: 'USD', priceMinor: 50_000 });
    await harness.pool.query(
      `UPDATE purchases SET paid_at = paid_at - interval '30 days' WHERE id = $1`,
      [sale.purchaseId],
    );
    const withdrawn = await call(admin, 'POST', '/api/payouts/withdraw');
    expect(withdrawn.status, await withdrawn.clone().text()).toBe(202);
    const [payout] = (await withdrawn.json()).payouts;
    expect(await auditedOnce(store.id, 'payout.withdrawn')).toMatchObject({
      actorId: admin.actor!.id,
      details: { payouts: [{ id: payout.id, currency: payout.currency }] },
    });
  });

  it('an owner acting for a store received by transfer has the owner’s right; re-authentication still applies', async () => {
    const store = newStore();
    const owner = actingFor(store, 'owner');
    expect((await call(owner, 'GET', '/api/billing/plan')).status).toBe(200);
    const wise = { method: 'wise', email: 'new-owner@example.com', accountId: '99990000' };
    const stale = await call(
      { ...owner, authTime: new Date(Date.now() - 3_600_000) },
      'PUT',
      '/api/payouts/destination',
      wise,
    );
    expect((await stale.json()).error.code).toBe('reauthentication_required');
    const saved = await call(owner, 'PUT', '/api/payouts/destination', wise);
    expect(saved.status).toBe(200);
    expect(await auditedOnce(store.id, 'payout_destination.added')).toMatchObject({
      actorId: owner.actor!.id,
    });
  });
});

describe("the store's sales export", () => {
  it('an accountant downloads the sales as CSV but cannot refund; support refunds but cannot export', async () => {
    const store = newStore();
    const { purchaseId, buyerEmail, txRef } = await sell(harness, {
      ownerId: store.id,
      // A title a spreadsheet would run as a formula: exported as text.
      title: '=HYPERLINK("https://evil.example")',
    });
    const accountant = actingFor(store, 'accountant');
    const exported = await call(accountant, 'GET', '/api/purchases/sales/export.csv');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('text/csv');
    expect(exported.headers.get('content-disposition')).toContain('lockdrop-sales.csv');
    const [header, row, end] = (await exported.text()).split('\r\n');
    expect(header).toBe(
      '"paid_at","product","buyer_email","amount","currency","discount_code","platform_fee","processing_fee","earnings","status","refunded_at","test_mode","payment_reference","sale_id"',
    );
    expect(row).toContain(`"'=HYPERLINK(""https://evil.example"")","${buyerEmail}"`);
    expect(row).toContain(`"paid","","yes","${txRef}","${purchaseId}"`);
    expect(end).toBe('');

    const refund = await call(accountant, 'POST', `/api/purchases/${purchaseId}/refund`);
    expect(refund.status).toBe(403);
    expect((await refund.json()).error).toMatchObject({
      code: 'not_allowed_for_role',
      details: { role: 'accountant', requiredRight: 'refunds:write' },
    });
    const support = actingFor(store, 'support');
    const notExported = await call(support, 'GET', '/api/purchases/sales/export.csv');
    expect(notExported.status).toBe(403);
    // Another store's export holds none of this store's sales.
    const other = await call(newStore(), 'GET', '/api/purchases/sales/export.csv');
    expect(await other.text()).not.toContain(purchaseId);
  });
});

import { randomUUID } from 'node:crypto';
import {
  publicSaleSchema,
  publicSubscriptionSchema,
  webhookEndpointWithSecretSchema,
  type WebhookEndpointWithSecret,
} from '@lockdrop/contracts';
import { openMailbox } from '@lockdrop/mailer';
import {
  productSnapshotData,
  purchasePaidAfterPending,
  purchasePaidData,
  purchasePendingData,
  purchaseRefundedData,
  startTestIssuer,
  startWebhookReceiver,
  testEvent,
  type TestAccount,
  type TestIssuer,
  type WebhookReceiver,
} from '@lockdrop/testing';
import type { HttpServer } from '@lockdrop/http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerHarness, waitFor, type WorkerHarness } from './support.js';

let issuer: TestIssuer;
let harness: WorkerHarness;
let worker: HttpServer;
const receivers: WebhookReceiver[] = [];

// The ~24 h schedule compressed: 5 attempts, 150 ms then doubling (≈ 2.3 s in all), 400 ms each.
beforeAll(async () => {
  issuer = await startTestIssuer();
  harness = await startWorkerHarness({
    JWKS_URL: issuer.jwksUrl,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_ATTEMPTS: '5',
    WEBHOOK_BACKOFF_MS: '150',
    WEBHOOK_TIMEOUT_MS: '400',
  });
  worker = await harness.startWorker();
}, 60_000);
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await harness?.close();
  await issuer?.close();
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

function call(
  seller: TestAccount,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return worker.inject({
    method,
    url,
    headers: { authorization: seller.authorization },
    ...(payload !== undefined && { payload: payload as object }),
  });
}

async function createEndpoint(
  seller: TestAccount,
  url: string,
  events: string[] = ['sale.created', 'sale.refunded', 'sale.disputed'],
  mode?: 'live' | 'test',
): Promise<WebhookEndpointWithSecret> {
  const response = await call(seller, 'POST', '/api/webhook-endpoints', {
    url,
    events,
    ...(mode && { mode }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return webhookEndpointWithSecretSchema.parse(response.json());
}

async function sell(seller: TestAccount) {
  const paid = purchasePaidData({ sellerId: seller.id });
  await harness.bus.publish(testEvent('purchase.paid', paid));
  return paid;
}

function verify(secret: string, webhook: { body: string; headers: Record<string, string> }) {
  return new Webhook(secret).verify(webhook.body, webhook.headers) as {
    type: string;
    data: unknown;
  };
}

async function deliveriesOf(seller: TestAccount, query = '') {
  const response = await call(seller, 'GET', `/api/webhook-deliveries${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().deliveries as {
    id: string;
    status: string;
    attempts: number;
    responseStatus: number | null;
    error: string | null;
    eventType: string;
  }[];
}

describe('endpoints in the dashboard', () => {
  it('gives the owner a Standard Webhooks secret, sealed at rest, and nobody else the endpoint', async () => {
    const seller = await issuer.account();
    const other = await issuer.account();
    const endpoint = await createEndpoint(seller, 'https://hooks.example.com/lockdrop');
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const stored = await harness.pool.query('SELECT * FROM webhook_endpoints WHERE id = $1', [
      endpoint.id,
    ]);
    expect(JSON.stringify(stored.rows[0])).not.toContain(endpoint.secret.slice('whsec_'.length));

    const list = await call(seller, 'GET', '/api/webhook-endpoints');
    expect(list.json().endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    // Shown once at creation: no list or read carries the secret afterwards.
    expect(list.body).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(list.json().endpoints[0]).not.toHaveProperty('secret');
    expect((await call(other, 'GET', '/api/webhook-endpoints')).json().endpoints).toEqual([]);
    for (const [method, url, body] of [
      ['PATCH', `/api/webhook-endpoints/${endpoint.id}`, { enabled: false }],
      ['DELETE', `/api/webhook-endpoints/${endpoint.id}`, undefined],
      ['POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined],
      ['POST', `/api/webhook-endpoints/${endpoint.id}/reveal-secret`, undefined],
      ['POST', `/api/webhook-endpoints/${endpoint.id}/test`, undefined],
    ] as const) {
      const response = await call(other, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'webhook_endpoint_not_found' } });
    }
    const unchanged = await call(seller, 'GET', '/api/webhook-endpoints');
    expect(unchanged.json().endpoints[0]).toMatchObject({ enabled: true, mode: 'live' });
    // Issue 28: an owner who received the store by a transfer (acting for it) and its admins
    // (the former owner, say) manage its endpoints; an editor does not (see 'a store's team').
    const actingAs = (role: 'owner' | 'admin' | 'editor') =>
      issuer.account({ id: seller.id, actor: { id: randomUUID(), role } });
    const byOwner = await call(await actingAs('owner'), 'GET', '/api/webhook-endpoints');
    expect(byOwner.json().endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    const byAdmin = await call(await actingAs('admin'), 'GET', '/api/webhook-endpoints');
    expect(byAdmin.json().endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    const byEditor = await call(await actingAs('editor'), 'GET', '/api/webhook-endpoints');
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().error.code).toBe('not_allowed_for_role');
    // The owner's explicit "Reveal secret" shows it again, uncached.
    const revealed = await call(
      seller,
      'POST',
      `/api/webhook-endpoints/${endpoint.id}/reveal-secret`,
    );
    expect(revealed.statusCode).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    expect(revealed.json()).toMatchObject({ id: endpoint.id, secret: endpoint.secret });

    const anonymous = await worker.inject({ method: 'GET', url: '/api/webhook-endpoints' });
    expect(anonymous.statusCode).toBe(401);
    const bad = await call(seller, 'POST', '/api/webhook-endpoints', {
      url: 'ftp://example.com',
      events: ['sale.exploded'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBeTruthy();

    const patched = await call(seller, 'PATCH', `/api/webhook-endpoints/${endpoint.id}`, {
      events: ['payout.paid'],
      enabled: false,
    });
    expect(patched.json()).toMatchObject({ events: ['payout.paid'], enabled: false });
    expect((await call(seller, 'DELETE', `/api/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(
      204,
    );
    expect((await call(seller, 'GET', '/api/webhook-endpoints')).json().endpoints).toEqual([]);
  });

  it('shows or rotates a secret only to a session that proved who it is recently', async () => {
    const seller = await issuer.account();
    const endpoint = await createEndpoint(seller, 'https://hooks.example.com/lockdrop');
    // The same account behind a session whose last sign-in was an hour ago (a stolen cookie).
    const stale = await issuer.account({
      id: seller.id,
      authTime: new Date(Date.now() - 3_600_000),
    });
    for (const action of ['reveal-secret', 'rotate-secret']) {
      const refused = await call(stale, 'POST', `/api/webhook-endpoints/${endpoint.id}/${action}`);
      expect([action, refused.statusCode, refused.json().error.code]).toEqual([
        action,
        403,
        'reauthentication_required',
      ]);
      expect(refused.body).not.toContain(endpoint.secret);
    }
    // Nothing changed: the old secret still signs alone, and a fresh proof shows it.
    const [stored] = (await call(seller, 'GET', '/api/webhook-endpoints')).json().endpoints;
    expect(stored.previousSecretExpiresAt).toBeNull();
    const revealed = await call(
      seller,
      'POST',
      `/api/webhook-endpoints/${endpoint.id}/reveal-secret`,
    );
    expect(revealed.json().secret).toBe(endpoint.secret);
  });
});

describe("a store's team (issue 28)", () => {
  it('lets an admin acting for the store do everything with its endpoints, audited, and refuses the other roles', async () => {
    const seller = await issuer.account();
    const adminId = randomUUID();
    const admin = await issuer.account({ id: seller.id, actor: { id: adminId, role: 'admin' } });
    const hooks = await receiver();

    // Every dashboard webhook route, by the admin.
    const made = await call(admin, 'POST', '/api/webhook-endpoints', {
      url: hooks.url,
      events: ['sale.created'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const endpoint = webhookEndpointWithSecretSchema.parse(made.json());
    // The store's endpoint (the seller account's), which its owner sees.
    expect(
      (await call(seller, 'GET', '/api/webhook-endpoints'))
        .json()
        .endpoints.map((e: { id: string }) => e.id),
    ).toEqual([endpoint.id]);
    const answers: Record<string, number> = {};
    const run = async (
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload?: unknown,
    ) => {
      const response = await call(admin, method, url, payload);
      answers[`${method} ${url.replace(endpoint.id, ':id')}`] = response.statusCode;
      return response;
    };
    await run('GET', '/api/webhook-endpoints');
    await run('PATCH', `/api/webhook-endpoints/${endpoint.id}`, { description: 'Shop sync' });
    const rotated = await run('POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`);
    const revealed = await run('POST', `/api/webhook-endpoints/${endpoint.id}/reveal-secret`);
    expect(revealed.json().secret).toBe(rotated.json().secret);
    await run('POST', `/api/webhook-endpoints/${endpoint.id}/test`);
    await waitFor(async () => hooks.processed.length === 1);
    await waitFor(async () => (await deliveriesOf(admin))[0]?.status === 'succeeded');
    const [delivery] = await deliveriesOf(admin);
    const redelivered = await call(
      admin,
      'POST',
      `/api/webhook-deliveries/${delivery!.id}/redeliver`,
    );
    expect(redelivered.statusCode).toBe(202);
    await waitFor(async () => hooks.requests.length === 2);

    // The other roles (a read-only member acts as an accountant) are refused every route.
    for (const role of ['editor', 'support', 'accountant'] as const) {
      const member = await issuer.account({
        id: seller.id,
        actor: { id: randomUUID(), role },
      });
      for (const [method, url, body] of [
        ['GET', '/api/webhook-endpoints', undefined],
        ['POST', '/api/webhook-endpoints', { url: hooks.url, events: ['sale.created'] }],
        ['PATCH', `/api/webhook-endpoints/${endpoint.id}`, { enabled: false }],
        ['DELETE', `/api/webhook-endpoints/${endpoint.id}`, undefined],
        ['POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined],
        ['POST', `/api/webhook-endpoints/${endpoint.id}/reveal-secret`, undefined],
        ['POST', `/api/webhook-endpoints/${endpoint.id}/test`, undefined],
        ['GET', '/api/webhook-deliveries', undefined],
        ['POST', `/api/webhook-deliveries/${delivery!.id}/redeliver`, undefined],
      ] as const) {
        const response = await call(member, method, url, body);
        expect(
          [response.statusCode, response.json().error?.code],
          `${role} ${method} ${url}`,
        ).toEqual([403, 'not_allowed_for_role']);
      }
    }

    await run('DELETE', `/api/webhook-endpoints/${endpoint.id}`);
    expect(answers).toEqual({
      'GET /api/webhook-endpoints': 200,
      'PATCH /api/webhook-endpoints/:id': 200,
      'POST /api/webhook-endpoints/:id/rotate-secret': 200,
      'POST /api/webhook-endpoints/:id/reveal-secret': 200,
      'POST /api/webhook-endpoints/:id/test': 202,
      'DELETE /api/webhook-endpoints/:id': 204,
    });

    // The store's audit log hears each change, naming the admin (never a secret).
    const { rows } = await harness.pool.query<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM outbox WHERE type = 'audit.worker_action'
         AND payload->'data'->>'storeId' = $1 ORDER BY created_at, id`,
      [seller.id],
    );
    expect(rows.map((row) => [row.payload.data.action, row.payload.data.actorId])).toEqual([
      ['webhook_endpoint.created', adminId],
      ['webhook_endpoint.updated', adminId],
      ['webhook_endpoint.secret_rotated', adminId],
      ['webhook_endpoint.secret_revealed', adminId],
      ['webhook_endpoint.deleted', adminId],
    ]);
    expect(rows[0]!.payload.data).toMatchObject({
      target: endpoint.id,
      details: { url: hooks.url, mode: 'live' },
    });
    expect(JSON.stringify(rows)).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(JSON.stringify(rows)).not.toContain(rotated.json().secret.slice('whsec_'.length));
  });
});

describe('deliveries', () => {
  it('sends sale.created once per event, signed so standardwebhooks verifies it, with the public sale', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    const endpoint = await createEndpoint(seller, hooks.url);
    const paid = await sell(seller);
    // Another seller's sale never reaches this endpoint.
    await sell(await issuer.account());

    await waitFor(async () => hooks.processed.length === 1);
    const [webhook] = hooks.processed;
    const payload = verify(endpoint.secret, webhook!);
    expect(payload.type).toBe('sale.created');
    const sale = publicSaleSchema.parse(payload.data);
    expect(sale).toMatchObject({
      id: paid.purchaseId,
      status: 'paid',
      amountMinor: paid.amountMinor,
      sellerEarningsMinor: paid.sellerEarningsMinor,
    });
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, webhook!)).toThrow();

    // The worker records the attempt once the receiver's answer is back, a moment after it arrived.
    const logged = await waitFor(async () => {
      const [row] = await deliveriesOf(seller, `?endpointId=${endpoint.id}`);
      return row?.status === 'pending' ? null : row;
    });
    expect(logged).toMatchObject({
      id: webhook!.id,
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      eventType: 'sale.created',
    });
    const other = await issuer.account();
    expect(await deliveriesOf(other)).toEqual([]);
  });

  it("a flash sale's events, taken in batches, reach each seller's own endpoints only", async () => {
    const sellers = [await issuer.account(), await issuer.account()];
    const hooks = [await receiver(), await receiver()];
    await createEndpoint(sellers[0]!, hooks[0]!.url, ['sale.created']);
    await createEndpoint(sellers[1]!, hooks[1]!.url, ['sale.created']);
    const quiet = await issuer.account();
    // Published together, so the worker takes them in batches mixing the sellers.
    const sales = await Promise.all(
      Array.from({ length: 24 }, (_, index) => sell([sellers[0]!, sellers[1]!, quiet][index % 3]!)),
    );
    const saleIdsOf = (seller: TestAccount) =>
      sales.filter((sale) => sale.sellerId === seller.id).map((sale) => sale.purchaseId);
    for (const [index, hook] of hooks.entries()) {
      await waitFor(async () => hook.processed.length >= 8);
      const heard = hook.processed.map(
        (webhook) => (JSON.parse(webhook.body) as { data: { id: string } }).data.id,
      );
      expect(heard.sort()).toEqual(saleIdsOf(sellers[index]!).sort());
    }
    expect(await deliveriesOf(quiet)).toEqual([]);
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    const endpoint = await createEndpoint(seller, hooks.url);
    const rotated = await call(
      seller,
      'POST',
      `/api/webhook-endpoints/${endpoint.id}/rotate-secret`,
    );
    const after = webhookEndpointWithSecretSchema.parse(rotated.json());
    expect(after.secret).not.toBe(endpoint.secret);
    const overlapHours = (Date.parse(after.previousSecretExpiresAt!) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);

    await sell(seller);
    await waitFor(async () => hooks.processed.length === 1);
    const [webhook] = hooks.processed;
    expect(webhook!.signature.split(' ')).toHaveLength(2);
    expect(verify(endpoint.secret, webhook!).type).toBe('sale.created');
    expect(verify(after.secret, webhook!).type).toBe('sale.created');

    // Once the overlap is over, only the new secret signs.
    await harness.pool.query(
      `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
      [endpoint.id],
    );
    await sell(seller);
    await waitFor(async () => hooks.processed.length === 2);
    expect(() => verify(endpoint.secret, hooks.processed[1]!)).toThrow();
    expect(verify(after.secret, hooks.processed[1]!).type).toBe('sale.created');
  });

  it('a receiver down for "an hour" gets every event afterwards, in order per resource', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    const endpoint = await createEndpoint(seller, hooks.url);
    await hooks.down();
    const first = await sell(seller);
    const second = await sell(seller);
    // Events as they happen: a refund or a dispute comes after its sale was recorded (two worker
    // replicas may record events of one instant in either order; receivers order by updatedAt).
    await waitFor(async () => (await deliveriesOf(seller)).length === 2);
    await harness.bus.publish(testEvent('purchase.refunded', purchaseRefundedData(first)));
    await harness.bus.publish(
      testEvent('purchase.refunded', purchaseRefundedData(second, { reason: 'chargeback' })),
    );
    // Several attempts fail on a refused connection before the receiver is back.
    await waitFor(async () => {
      const log = await deliveriesOf(seller);
      return log.length === 4 && log.some((delivery) => delivery.attempts >= 2);
    });
    const refused = await deliveriesOf(seller, '?status=pending');
    expect(refused.find((delivery) => delivery.attempts > 0)?.error).toMatch(/ECONNREFUSED/);
    await hooks.up();

    await waitFor(async () => hooks.processed.length === 4, 20_000);
    const seen = hooks.processed.map((webhook) => {
      const payload = verify(endpoint.secret, webhook) as { type: string; data: { id: string } };
      return `${payload.data.id}:${payload.type}`;
    });
    const about = (purchaseId: string) => seen.filter((entry) => entry.startsWith(purchaseId));
    expect(about(first.purchaseId)).toEqual([
      `${first.purchaseId}:sale.created`,
      `${first.purchaseId}:sale.refunded`,
    ]);
    expect(about(second.purchaseId)).toEqual([
      `${second.purchaseId}:sale.created`,
      `${second.purchaseId}:sale.disputed`,
    ]);
    // The receiver holds a webhook before its answer reaches the worker, which then records it.
    await waitFor(async () =>
      (await deliveriesOf(seller)).every((delivery) => delivery.status === 'succeeded'),
    );
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    await createEndpoint(seller, hooks.url);
    hooks.behave({ kind: 'redirect' });
    await sell(seller);
    await waitFor(async () => hooks.requests.length >= 2);
    const [delivery] = await deliveriesOf(seller);
    expect(delivery).toMatchObject({ responseStatus: 302, error: 'redirects are not followed' });
    expect(hooks.redirectsFollowed).toBe(0);
    expect(hooks.processed).toHaveLength(0);
  });

  it('retries a receiver that processed the event but answered after the timeout, with the same webhook-id', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    await createEndpoint(seller, hooks.url);
    hooks.behave({ kind: 'late', delayMs: 1_000 });
    await sell(seller);
    await waitFor(async () => hooks.requests.length >= 2);
    hooks.behave({ kind: 'ok' });
    await waitFor(async () => (await deliveriesOf(seller))[0]?.status === 'succeeded');
    const ids = new Set(hooks.requests.map((request) => request.id));
    expect(ids.size).toBe(1);
    expect(hooks.processed).toHaveLength(1);
    const [delivery] = await deliveriesOf(seller);
    expect(delivery!.attempts).toBeGreaterThanOrEqual(2);
  });

  it('disables an endpoint that keeps failing and e-mails its seller', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    const endpoint = await createEndpoint(seller, hooks.url);
    hooks.behave({ kind: 'slow', delayMs: 2_000 });
    await sell(seller);
    await waitFor(async () => (await deliveriesOf(seller))[0]?.status === 'failed', 20_000);
    const [delivery] = await deliveriesOf(seller);
    expect(delivery).toMatchObject({ attempts: 5, error: 'no answer within 400 ms' });
    const [after] = (await call(seller, 'GET', '/api/webhook-endpoints')).json().endpoints;
    expect(after).toMatchObject({ id: endpoint.id, enabled: false });
    expect(after.disabledReason).toContain('failed 5 attempts');
    const mailbox = await openMailbox(harness.pool);
    await waitFor(async () => (await mailbox.list()).some((mail) => mail.to === seller.email));
    const mail = (await mailbox.list()).find((message) => message.to === seller.email)!;
    expect(mail.subject).toBe('Your webhook endpoint was disabled');
    expect(mail.text).toContain(hooks.url);

    // Disabled: the next sale is not sent; turned on again and redelivered, the missed one arrives.
    hooks.behave({ kind: 'ok' });
    const missed = testEvent('purchase.paid', purchasePaidData({ sellerId: seller.id }));
    await harness.bus.publish(missed);
    await waitFor(async () => {
      const { rows } = await harness.pool.query(
        'SELECT 1 FROM processed_events WHERE event_id = $1',
        [missed.id],
      );
      return rows.length === 1;
    });
    const enabled = await call(seller, 'PATCH', `/api/webhook-endpoints/${endpoint.id}`, {
      enabled: true,
    });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null });
    const redelivered = await call(
      seller,
      'POST',
      `/api/webhook-deliveries/${delivery!.id}/redeliver`,
    );
    expect(redelivered.statusCode).toBe(202);
    await waitFor(async () => hooks.processed.some((webhook) => webhook.id === delivery!.id));
    expect(hooks.processed.map((webhook) => webhook.id)).toEqual([delivery!.id]);
  });

  it('redelivers with the same webhook-id, sends test events, and lets only the owner do either', async () => {
    const seller = await issuer.account();
    const other = await issuer.account();
    const hooks = await receiver();
    const endpoint = await createEndpoint(seller, hooks.url);
    await sell(seller);
    await waitFor(async () => hooks.processed.length === 1);
    const [delivery] = await deliveriesOf(seller);

    const refused = await call(other, 'POST', `/api/webhook-deliveries/${delivery!.id}/redeliver`);
    expect(refused.statusCode).toBe(404);
    const response = await call(
      seller,
      'POST',
      `/api/webhook-deliveries/${delivery!.id}/redeliver`,
    );
    expect(response.statusCode).toBe(202);
    await waitFor(async () => hooks.requests.length === 2);
    expect(hooks.requests.map((request) => request.id)).toEqual([delivery!.id, delivery!.id]);
    expect(verify(endpoint.secret, hooks.requests[1]!).type).toBe('sale.created');
    await waitFor(async () => (await deliveriesOf(seller))[0]?.attempts === 2);

    const test = await call(seller, 'POST', `/api/webhook-endpoints/${endpoint.id}/test`);
    expect(test.statusCode).toBe(202);
    await waitFor(async () => hooks.processed.length === 2);
    expect(verify(endpoint.secret, hooks.processed[1]!)).toMatchObject({
      type: 'webhook.test',
      data: { object: 'test' },
    });
  });

  it('tells product subscriptions apart from plans and maps their lifecycle', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    const endpoint = await createEndpoint(seller, hooks.url, [
      'subscription.created',
      'subscription.canceled',
    ]);
    const snapshot = {
      subscriptionId: crypto.randomUUID(),
      kind: 'product' as const,
      productId: crypto.randomUUID(),
      sellerId: seller.id,
      userId: null,
      plan: null,
      buyerEmail: 'fan@example.com',
      interval: 'monthly' as const,
      amountMinor: 500,
      currency: 'USD',
      status: 'active' as const,
      cancelAtPeriodEnd: false,
      currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      accessUntil: new Date(Date.now() + 31 * 86_400_000).toISOString(),
      revision: 1,
    };
    await harness.bus.publish(testEvent('subscription.started', snapshot));
    // Not subscribed to renewals: nothing is sent for this one.
    await harness.bus.publish(testEvent('subscription.renewed', { ...snapshot, revision: 2 }));
    await harness.bus.publish(
      testEvent('subscription.cancelled', { ...snapshot, cancelAtPeriodEnd: true, revision: 3 }),
    );
    await waitFor(async () => hooks.processed.length === 2);
    const payloads = hooks.processed.map((webhook) => verify(endpoint.secret, webhook));
    expect(payloads.map((payload) => payload.type)).toEqual([
      'subscription.created',
      'subscription.canceled',
    ]);
    expect(publicSubscriptionSchema.parse(payloads[1]!.data)).toMatchObject({
      id: snapshot.subscriptionId,
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
  });
});

describe('sale.pending (issue 27)', () => {
  it('a receiver gets sale.pending, then sale.created for the same sale id, both verified', async () => {
    const seller = await issuer.account();
    const hooks = await receiver();
    const endpoint = await createEndpoint(
      seller,
      hooks.url,
      ['sale.pending', 'sale.created', 'sale.failed'],
      'test',
    );
    const pending = purchasePendingData({ sellerId: seller.id, testMode: true });
    const announced = testEvent('purchase.pending', pending);
    await harness.bus.publish(announced);
    // The same announcement redelivered by the bus is still one delivery.
    await harness.bus.publish(announced);
    // A bank transfer arrives minutes later. (Two worker replicas share the consumer: events about
    // one sale published in the same instant may be sent in either order — README, "Webhooks for
    // sellers" — which is why every payload carries the sale's state and updatedAt.)
    await waitFor(async () => hooks.processed.length === 1);
    await harness.bus.publish(testEvent('purchase.paid', purchasePaidAfterPending(pending)));

    await waitFor(async () => hooks.processed.length === 2);
    const payloads = hooks.processed.map((webhook) => verify(endpoint.secret, webhook));
    expect(payloads.map((payload) => payload.type)).toEqual(['sale.pending', 'sale.created']);
    const [whilePending, created] = payloads.map((payload) => publicSaleSchema.parse(payload.data));
    expect(whilePending).toMatchObject({
      id: pending.purchaseId,
      status: 'pending',
      productId: pending.productId,
      buyerEmail: pending.buyerEmail,
      amountMinor: pending.amountMinor,
      currency: pending.currency,
      paidAt: null,
      sellerEarningsMinor: null,
    });
    expect(created).toMatchObject({ id: pending.purchaseId, status: 'paid' });
    expect(Date.parse(created!.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(whilePending!.updatedAt),
    );
    expect(new Set(hooks.processed.map((webhook) => webhook.id)).size).toBe(2);

    // A transfer that fails instead ends in sale.failed under the sale id sale.pending gave.
    const abandoned = purchasePendingData({ sellerId: seller.id, testMode: true });
    await harness.bus.publish(testEvent('purchase.pending', abandoned));
    await waitFor(async () => hooks.processed.length === 3);
    await harness.bus.publish(
      testEvent('purchase.failed', { ...abandoned, failedAt: new Date().toISOString() }),
    );
    await waitFor(async () => hooks.processed.length === 4);
    const ended = hooks.processed.slice(2).map((webhook) => verify(endpoint.secret, webhook));
    expect(ended.map((payload) => [payload.type, (payload.data as { id: string }).id])).toEqual([
      ['sale.pending', abandoned.purchaseId],
      ['sale.failed', abandoned.purchaseId],
    ]);
    expect(publicSaleSchema.parse(ended[1]!.data).status).toBe('failed');
  });
});

describe('endpoints per mode (issue 27)', () => {
  it('a test endpoint hears only test-mode money, a live one only live money; products reach both', async () => {
    const seller = await issuer.account();
    const liveHooks = await receiver();
    const testHooks = await receiver();
    const events = ['sale.created', 'payout.paid', 'subscription.created', 'product.created'];
    const live = await createEndpoint(seller, liveHooks.url, events);
    const test = await createEndpoint(seller, testHooks.url, events, 'test');
    expect([live.mode, test.mode]).toEqual(['live', 'test']);

    const testSale = purchasePaidData({ sellerId: seller.id, testMode: true });
    const liveSale = purchasePaidData({ sellerId: seller.id, testMode: false });
    // Published before modes were carried: live.
    const olderSale = purchasePaidData({ sellerId: seller.id });
    const testPayout = {
      payoutId: crypto.randomUUID(),
      sellerId: seller.id,
      amountMinor: 10_000,
      currency: 'NGN',
      providerReference: 'SANDBOX-1',
      testMode: true,
    };
    const product = productSnapshotData({ ownerId: seller.id });
    for (const event of [
      testEvent('purchase.paid', testSale),
      testEvent('purchase.paid', liveSale),
      testEvent('purchase.paid', olderSale),
      testEvent('payout.paid', testPayout),
      testEvent('product.created', product),
    ])
      await harness.bus.publish(event);

    await waitFor(async () => liveHooks.processed.length === 3 && testHooks.processed.length === 3);
    const heard = (hooks: WebhookReceiver, secret: string) =>
      hooks.processed
        .map((webhook) => {
          const payload = verify(secret, webhook) as { type: string; data: { id: string } };
          return `${payload.type}:${payload.data.id}`;
        })
        .sort();
    expect(heard(liveHooks, live.secret)).toEqual(
      [
        `sale.created:${liveSale.purchaseId}`,
        `sale.created:${olderSale.purchaseId}`,
        `product.created:${product.productId}`,
      ].sort(),
    );
    expect(heard(testHooks, test.secret)).toEqual(
      [
        `sale.created:${testSale.purchaseId}`,
        `payout.paid:${testPayout.payoutId}`,
        `product.created:${product.productId}`,
      ].sort(),
    );
    // Every event was handled (the last one reached both): nothing more is on its way.
    const { rows } = await harness.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE seller_id = $1',
      [seller.id],
    );
    expect(rows[0]!.n).toBe(6);
  });
});

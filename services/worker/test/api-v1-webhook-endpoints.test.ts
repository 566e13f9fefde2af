import { v1CreatedWebhookEndpointSchema, type ApiKeyScope } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import {
  purchasePaidData,
  startTestIssuer,
  startWebhookReceiver,
  testEvent,
  type TestAccount,
  type TestIssuer,
  type WebhookReceiver,
} from '@lockdrop/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerHarness, waitFor, type WorkerHarness } from './support.js';

let issuer: TestIssuer;
let harness: WorkerHarness;
let worker: HttpServer;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  issuer = await startTestIssuer();
  harness = await startWorkerHarness({
    JWKS_URL: issuer.jwksUrl,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_ATTEMPTS: '3',
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

const ALL: ApiKeyScope[] = ['webhooks:read', 'webhooks:write'];

/** A seller and the token the gateway forwards for one of their keys (and their session). */
async function seller(scopes: ApiKeyScope[] = ALL) {
  const session = await issuer.account();
  const key = await issuer.account({ id: session.id, apiKey: { scopes, mode: 'test' } });
  const liveKey = await issuer.account({ id: session.id, apiKey: { scopes, mode: 'live' } });
  return { id: session.id, session, key, liveKey };
}

function call(
  as: TestAccount,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return worker.inject({
    method,
    url,
    headers: { authorization: as.authorization },
    ...(payload !== undefined && { payload: payload as object }),
  });
}

async function create(key: TestAccount, url = 'https://hooks.example.com/lockdrop') {
  const response = await call(key, 'POST', '/api/v1/webhook-endpoints', {
    url,
    events: ['sale.created'],
    description: 'Books',
  });
  expect(response.statusCode, response.body).toBe(201);
  return v1CreatedWebhookEndpointSchema.parse(response.json());
}

describe('/api/v1/webhook-endpoints', () => {
  it('creates an endpoint whose secret is shown once and signs what the seller receives', async () => {
    const a = await seller();
    const hooks = await startWebhookReceiver();
    receivers.push(hooks);
    const endpoint = await create(a.key, hooks.url);
    expect(endpoint).toMatchObject({
      object: 'webhook_endpoint',
      enabled: true,
      mode: 'test',
      events: ['sale.created'],
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    // Never again through the API: not in the list, not in a read, not after a change.
    const listed = await call(a.key, 'GET', '/api/v1/webhook-endpoints');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ object: 'list', has_more: false });
    expect(listed.json().data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    const read = await call(a.key, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`);
    const patched = await call(a.key, 'PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, {
      description: 'Accounting',
    });
    expect(patched.json()).toMatchObject({ description: 'Accounting', url: hooks.url });
    // A patch changes only what it names: turning off, then renaming, leaves it off.
    await call(a.key, 'PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { enabled: false });
    const renamed = await call(a.key, 'PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, {
      url: hooks.url,
    });
    expect(renamed.json()).toMatchObject({ enabled: false, description: 'Accounting' });
    await call(a.key, 'PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { enabled: true });
    for (const body of [listed.body, read.body, patched.body])
      expect(body).not.toContain(endpoint.secret.slice('whsec_'.length));
    // It is the dashboard's endpoint: the session sees it, of the key's mode (its secret only
    // on the seller's explicit reveal).
    const dashboard = await call(a.session, 'GET', '/api/webhook-endpoints');
    expect(dashboard.json().endpoints).toEqual([
      expect.not.objectContaining({ secret: expect.anything() }),
    ]);
    expect(dashboard.json().endpoints).toMatchObject([{ id: endpoint.id, mode: 'test' }]);

    // A test key's endpoint hears the seller's test-mode sales.
    const paid = purchasePaidData({ sellerId: a.id, testMode: true });
    await harness.bus.publish(testEvent('purchase.paid', paid));
    await waitFor(async () => hooks.processed.length === 1);
    const [webhook] = hooks.processed;
    const event = new Webhook(endpoint.secret).verify(webhook!.body, webhook!.headers) as {
      type: string;
      data: { id: string };
    };
    expect(event).toMatchObject({ type: 'sale.created', data: { id: paid.purchaseId } });

    expect(
      (await call(a.key, 'DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`)).statusCode,
    ).toBe(204);
    expect((await call(a.key, 'GET', '/api/v1/webhook-endpoints')).json().data).toEqual([]);
  });

  it("answers 404 for another seller's endpoint and changes nothing", async () => {
    const a = await seller();
    const b = await seller();
    const endpoint = await create(a.key);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(b.key, method, `/api/v1/webhook-endpoints/${endpoint.id}`, body);
      expect(response.statusCode, method).toBe(404);
      expect(response.json()).toEqual({
        error: { code: 'webhook_endpoint_not_found', message: 'Webhook endpoint not found' },
      });
    }
    expect((await call(b.key, 'GET', '/api/v1/webhook-endpoints')).json().data).toEqual([]);
    const mine = await call(a.key, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`);
    expect(mine.json()).toMatchObject({ id: endpoint.id, enabled: true });
    // Another seller's id is no cursor either.
    const cursor = await call(
      b.key,
      'GET',
      `/api/v1/webhook-endpoints?starting_after=${endpoint.id}`,
    );
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().error.code).toBe('invalid_cursor');
  });

  it("a key sees and changes only its own mode's endpoints; each endpoint hears only its mode's money", async () => {
    const a = await seller();
    const testHooks = await startWebhookReceiver();
    const liveHooks = await startWebhookReceiver();
    receivers.push(testHooks, liveHooks);
    const testEndpoint = await create(a.key, testHooks.url);
    const liveEndpoint = await create(a.liveKey, liveHooks.url);
    expect([testEndpoint.mode, liveEndpoint.mode]).toEqual(['test', 'live']);
    // A mode in the body is no way round the key's: the v1 input has no such field.
    const smuggled = await call(a.key, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/x',
      events: ['sale.created'],
      mode: 'live',
    });
    expect(smuggled.statusCode).toBe(400);

    for (const [key, own, foreign] of [
      [a.key, testEndpoint, liveEndpoint],
      [a.liveKey, liveEndpoint, testEndpoint],
    ] as const) {
      const listed = await call(key, 'GET', '/api/v1/webhook-endpoints');
      expect(listed.json().data.map((e: { id: string }) => e.id)).toEqual([own.id]);
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { enabled: false }],
        ['DELETE', undefined],
      ] as const) {
        const response = await call(key, method, `/api/v1/webhook-endpoints/${foreign.id}`, body);
        expect(response.statusCode, `${method} ${foreign.mode} endpoint`).toBe(404);
      }
      const cursor = await call(
        key,
        'GET',
        `/api/v1/webhook-endpoints?starting_after=${foreign.id}`,
      );
      expect(cursor.statusCode).toBe(400);
    }
    // Nothing changed: the dashboard (both modes) still has both, enabled.
    const dashboard = await call(a.session, 'GET', '/api/webhook-endpoints');
    expect(
      dashboard.json().endpoints.map((e: { id: string; enabled: boolean }) => [e.id, e.enabled]),
    ).toEqual([
      [testEndpoint.id, true],
      [liveEndpoint.id, true],
    ]);

    const testSale = purchasePaidData({ sellerId: a.id, testMode: true });
    const liveSale = purchasePaidData({ sellerId: a.id, testMode: false });
    await harness.bus.publish(testEvent('purchase.paid', testSale));
    await harness.bus.publish(testEvent('purchase.paid', liveSale));
    await waitFor(async () => testHooks.processed.length === 1 && liveHooks.processed.length === 1);
    const heard = (hooks: WebhookReceiver, secret: string) =>
      hooks.processed.map(
        (webhook) =>
          (new Webhook(secret).verify(webhook.body, webhook.headers) as { data: { id: string } })
            .data.id,
      );
    expect(heard(testHooks, testEndpoint.secret)).toEqual([testSale.purchaseId]);
    expect(heard(liveHooks, liveEndpoint.secret)).toEqual([liveSale.purchaseId]);
    // Both events were handled (each made a delivery): the other mode's sale made none. (Two
    // worker replicas share the consumer, so the two rows may be recorded in either order.)
    const { rows } = await harness.pool.query<{ endpoint_id: string; resource_id: string }>(
      'SELECT endpoint_id, resource_id FROM webhook_deliveries WHERE seller_id = $1',
      [a.id],
    );
    const byEndpoint = (x: { endpoint_id: string }, y: { endpoint_id: string }) =>
      x.endpoint_id.localeCompare(y.endpoint_id);
    expect(rows.sort(byEndpoint)).toEqual(
      [
        { endpoint_id: testEndpoint.id, resource_id: testSale.purchaseId },
        { endpoint_id: liveEndpoint.id, resource_id: liveSale.purchaseId },
      ].sort(byEndpoint),
    );
  });

  it('pages with starting_after and limit', async () => {
    const a = await seller();
    const first = await create(a.key);
    const second = await create(a.key);
    const page = await call(a.key, 'GET', '/api/v1/webhook-endpoints?limit=1');
    expect(page.json()).toMatchObject({ has_more: true, data: [{ id: first.id }] });
    const next = await call(
      a.key,
      'GET',
      `/api/v1/webhook-endpoints?limit=1&starting_after=${first.id}`,
    );
    expect(next.json()).toMatchObject({ has_more: false, data: [{ id: second.id }] });
  });

  it('needs webhooks:read to read, webhooks:write to change, and a key rather than a session', async () => {
    const a = await seller();
    const endpoint = await create(a.key);
    const reader = await issuer.account({ id: a.id, apiKey: { scopes: ['webhooks:read'] } });
    const other = await issuer.account({ id: a.id, apiKey: { scopes: ['products:read'] } });
    expect((await call(reader, 'GET', '/api/v1/webhook-endpoints')).statusCode).toBe(200);
    for (const [method, url, body] of [
      [
        'POST',
        '/api/v1/webhook-endpoints',
        { url: 'https://x.example.com', events: ['sale.created'] },
      ],
      ['PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { enabled: false }],
      ['DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`, undefined],
    ] as const) {
      const refused = await call(reader, method, url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json().error).toMatchObject({ code: 'insufficient_scope' });
    }
    const blind = await call(other, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`);
    expect(blind.statusCode).toBe(403);
    const session = await call(a.session, 'GET', '/api/v1/webhook-endpoints');
    expect(session.statusCode).toBe(401);
    expect(session.json().error.code).toBe('api_key_required');
    // And the key opens none of the dashboard's webhook routes.
    expect((await call(a.key, 'GET', '/api/webhook-endpoints')).statusCode).toBe(401);
    expect(
      (await call(a.key, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).json(),
    ).toMatchObject({
      enabled: true,
    });
  });

  it('refuses invalid bodies and ids with 400 in the one error shape', async () => {
    const a = await seller();
    const endpoint = await create(a.key);
    for (const [method, url, body] of [
      ['POST', '/api/v1/webhook-endpoints', { url: 'ftp://example.com', events: ['sale.created'] }],
      [
        'POST',
        '/api/v1/webhook-endpoints',
        { url: 'https://example.com', events: ['sale.exploded'] },
      ],
      ['POST', '/api/v1/webhook-endpoints', { url: 'https://example.com', events: [] }],
      [
        'POST',
        '/api/v1/webhook-endpoints',
        { url: 'https://example.com', events: ['sale.created'], secret: 'mine' },
      ],
      ['PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, {}],
      ['PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { enabled: 'yes' }],
      ['GET', '/api/v1/webhook-endpoints/not-a-uuid', undefined],
      ['GET', '/api/v1/webhook-endpoints?limit=500', undefined],
    ] as const) {
      const refused = await call(a.key, method, url, body);
      expect(refused.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(Object.keys(refused.json())).toEqual(['error']);
      expect(refused.json().error).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
      });
    }
    const unchanged = await call(a.key, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`);
    expect(unchanged.json()).toMatchObject({ enabled: true, url: endpoint.url });
  });
});

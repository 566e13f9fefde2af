import { randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_SCOPES } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@lockdrop/testing';
import { startCluster, type Cluster } from './support/cluster';
import {
  openCheckouts,
  openShop,
  persistently,
  providerCharges,
  webhookStorm,
  type Browser,
  type Shop,
} from './support/shop';

/**
 * Issue 27's access matrix for API keys, on the production cluster (two replicas of everything
 * behind the gateway): seller A's key against seller B's products, files, sales, refunds,
 * subscriptions, discount codes, payouts and webhook endpoints. Every read of one of B's things
 * is a 404 (a key learns nothing, not even that it exists), no list shows them, and every write
 * leaves them as they were. Both keys are test keys (every plan has them; the cluster sells
 * through the sandbox, so every sale here is test-mode data a test key sees).
 */
let cluster: Cluster;
let a: Shop;
let b: Shop;
let keyA: string;
let keyB: string;

async function testKey(shop: Shop): Promise<string> {
  const { secret } = await shop.seller.json<{ secret: string }>('/api/auth/api-keys', {
    name: 'chaos access matrix',
    mode: 'test',
    scopes: API_KEY_SCOPES,
  });
  return secret;
}

/** A JSON answer, as loosely as a script reads one. */
interface Answer {
  status: number;
  body: { id?: string; data: Array<{ id: string; status?: string }>; [field: string]: unknown };
}

/** One call to `/api/v1` with `key`, retried through a replica restart like any client would. */
async function api(key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return persistently(async () => {
    const response = await fetch(`${cluster.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    if (response.status === 502 || response.status === 503) throw new Error(`${response.status}`);
    const text = await response.text();
    return {
      status: response.status,
      body: text ? (JSON.parse(text) as Answer['body']) : { data: [] },
    };
  });
}

/** A script's upload naming a product (`productId` before the file), retried like `api`. */
async function uploadTo(key: string, productId: string): Promise<number> {
  return persistently(async () => {
    const form = new FormData();
    form.append('productId', productId);
    form.append('file', new Blob([new Uint8Array(Buffer.from('not for you'))]), 'planted.txt');
    const response = await fetch(`${cluster.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
      signal: AbortSignal.timeout(30_000),
    });
    if (response.status === 502 || response.status === 503) throw new Error(`${response.status}`);
    await response.arrayBuffer();
    return response.status;
  });
}

beforeAll(async () => {
  cluster = await startCluster();
  [a, b] = await Promise.all([openShop(cluster, 'access-a'), openShop(cluster, 'access-b')]);
  [keyA, keyB] = await Promise.all([testKey(a), testKey(b)]);
  // B sells once, so B has a sale, a purchase to refund, balances and a payout history.
  const { txRefs } = await openCheckouts(cluster, b.productId, 1);
  await webhookStorm(cluster, await providerCharges(cluster, txRefs));
});
afterAll(async () => {
  await cluster?.stop();
});

describe("API keys against another seller's resources", () => {
  it("seller A's key reads, lists and changes none of seller B's things", async () => {
    // What B owns, found with B's own key (the positive half: these exist and B sees them).
    const saleB = await waitFor(async () => {
      const { status, body } = await api(keyB, 'GET', '/api/v1/sales');
      return status === 200 && body.data.length === 1 ? body.data[0]! : false;
    }, 60_000);
    const codeB = await api(keyB, 'POST', '/api/v1/discount-codes', {
      code: `B${Date.now()}`,
      kind: 'percent',
      percentOff: 10,
    });
    expect(codeB.status).toBe(201);
    const endpointB = await api(keyB, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://example.com/hooks/b',
      events: ['sale.created'],
    });
    expect(endpointB.status).toBe(201);
    const productB = await api(keyB, 'GET', `/api/v1/products/${b.productId}`);
    expect(productB.status).toBe(200);
    const fileB = productB.body.fileId as string;
    expect((await api(keyB, 'GET', `/api/v1/files/${fileB}`)).status).toBe(200);

    // A's key, B's ids: nothing is found.
    const reads = [
      `/api/v1/products/${b.productId}`,
      `/api/v1/files/${fileB}`,
      `/api/v1/sales/${saleB.id}`,
      `/api/v1/discount-codes/${codeB.body.id}`,
      `/api/v1/webhook-endpoints/${endpointB.body.id}`,
    ];
    const writes: Array<[string, string, unknown]> = [
      ['PATCH', `/api/v1/products/${b.productId}`, { title: 'Taken over' }],
      ['POST', `/api/v1/products/${b.productId}/unpublish`, undefined],
      ['POST', `/api/v1/sales/${saleB.id}/refund`, undefined],
      ['PATCH', `/api/v1/discount-codes/${codeB.body.id}`, { active: false }],
      ['DELETE', `/api/v1/discount-codes/${codeB.body.id}`, undefined],
      ['PATCH', `/api/v1/webhook-endpoints/${endpointB.body.id}`, { enabled: false }],
      ['DELETE', `/api/v1/webhook-endpoints/${endpointB.body.id}`, undefined],
    ];
    const answers: string[] = [];
    for (const path of reads) answers.push(`GET ${path} ${(await api(keyA, 'GET', path)).status}`);
    for (const [method, path, body] of writes)
      answers.push(`${method} ${path} ${(await api(keyA, method, path, body)).status}`);
    // An upload into B's product (POST /api/v1/files with productId) is refused before the file.
    const plant = `POST /api/v1/files productId=${b.productId}`;
    answers.push(`${plant} ${await uploadTo(keyA, b.productId)}`);
    expect(answers).toEqual([
      ...reads.map((path) => `GET ${path} 404`),
      ...writes.map(([method, path]) => `${method} ${path} 404`),
      `${plant} 404`,
    ]);

    // A product made from B's file is refused exactly as one made from a file that never existed.
    const borrow = (fileId: string) =>
      api(keyA, 'POST', '/api/v1/products', {
        title: 'Borrowed file',
        price: '10.00',
        currency: 'NGN',
        fileId,
      });
    const borrowed = await borrow(fileB);
    const invented = await borrow(randomUUID());
    expect(borrowed.status).toBe(400);
    expect(borrowed.body).toEqual(invented.body);

    // A's lists hold only A's things; B's cursors are refused on A's lists.
    const lists = [
      'products',
      'sales',
      'subscriptions',
      'discount-codes',
      'payouts',
      'webhook-endpoints',
    ];
    for (const list of lists) {
      const { status, body } = await api(keyA, 'GET', `/api/v1/${list}`);
      expect(status, list).toBe(200);
      const ids = (body.data as Array<{ id: string }>).map((item) => item.id);
      expect(ids, list).not.toContain(b.productId);
      expect(ids, list).not.toContain(saleB.id);
      expect(ids, list).not.toContain(codeB.body.id);
      expect(ids, list).not.toContain(endpointB.body.id);
    }
    expect((await api(keyA, 'GET', `/api/v1/sales?starting_after=${saleB.id}`)).status).toBe(400);
    expect((await api(keyA, 'GET', `/api/v1/products?starting_after=${b.productId}`)).status).toBe(
      400,
    );
    // A's analytics count none of B's sale.
    const overviewA = await api(keyA, 'GET', '/api/v1/analytics/overview');
    expect(overviewA.status).toBe(200);
    expect(JSON.stringify(overviewA.body)).not.toContain(saleB.id);

    // B's things are as they were, seen with B's key.
    const after = {
      product: (await api(keyB, 'GET', `/api/v1/products/${b.productId}`)).body,
      sale: (await api(keyB, 'GET', `/api/v1/sales/${saleB.id}`)).body,
      code: (await api(keyB, 'GET', `/api/v1/discount-codes/${codeB.body.id}`)).body,
      endpoint: (await api(keyB, 'GET', `/api/v1/webhook-endpoints/${endpointB.body.id}`)).body,
    };
    expect(after.product).toMatchObject({
      title: productB.body.title,
      status: 'published',
      files: productB.body.files,
    });
    expect(after.sale).toMatchObject({ id: saleB.id, status: saleB.status });
    expect(after.code).toMatchObject({ id: codeB.body.id, active: true });
    expect(after.endpoint).toMatchObject({ id: endpointB.body.id, enabled: true });
    console.log(
      `access matrix: seller A's key made ${answers.length} calls on seller B's resources, every one 404, ` +
        `and a product from B's file was refused as one from a file that never existed; ` +
        `${lists.length} lists and the analytics showed none of B's; B's product, sale, code and endpoint unchanged`,
    );
  });

  it("a key never opens the dashboard's session routes, and a session never opens /api/v1", async () => {
    const asKey = await fetch(`${cluster.baseUrl}/api/payouts/balances`, {
      headers: { authorization: `Bearer ${keyA}` },
    });
    expect(asKey.status).toBe(401);
    const asSession = await a.seller.request('/api/v1/products');
    expect(asSession.status).toBe(401);
    expect(((await asSession.json()) as { error: { code: string } }).error.code).toBe(
      'api_key_required',
    );
  });
});

/** The plan bought as the dashboard's upgrade does: the change, then Subscribe in the sandbox. */
async function becomeBusiness(shop: Shop): Promise<void> {
  const { link } = await shop.seller.json<{ link: string }>('/api/billing/plan/change', {
    plan: 'business',
    interval: 'monthly',
  });
  const paid = await shop.seller.request(`${new URL(link).pathname}/pay`, { method: 'POST' });
  expect(paid.status).toBe(303);
  // Catalog learns the plan from billing's plan.changed.
  await waitFor(
    async () => ((await domainSettings(shop.seller)).domainIncluded === true ? true : null),
    60_000,
    'catalog to hear of the Business plan',
  );
}

interface DomainSettingsAnswer {
  domainIncluded: boolean;
  domain: { host: string; status: string; records: { value: string }[] } | null;
}
const domainSettings = (seller: Browser) =>
  persistently(() => seller.json<DomainSettingsAnswer>('/api/domain', undefined, 'GET'));

describe("a store's custom domain against another seller", () => {
  it("seller B neither reads, takes, verifies nor removes seller A's domain", async () => {
    await Promise.all([becomeBusiness(a), becomeBusiness(b)]);
    const host = `shop-${randomBytes(4).toString('hex')}.example.com`;
    await persistently(() =>
      a.seller.json(
        '/api/brand',
        { handle: `store-a-${randomBytes(3).toString('hex')}`, name: 'A' },
        'PUT',
      ),
    );
    await persistently(() => a.seller.json('/api/domain', { host }, 'PUT'));
    const before = await domainSettings(a.seller);
    expect(before.domain).toMatchObject({ host, status: 'pending' });

    expect((await domainSettings(b.seller)).domain).toBeNull();
    const answers: [string, number][] = [];
    for (const [method, path, body] of [
      ['PUT', '/api/domain', { host }],
      ['PUT', '/api/domain', { host: host.toUpperCase() }],
      ['POST', '/api/domain/verify', undefined],
      ['DELETE', '/api/domain', undefined],
    ] as const) {
      const response = await persistently(async () => {
        const answer = await b.seller.request(path, {
          method,
          headers: body ? { 'content-type': 'application/json' } : {},
          body: body ? JSON.stringify(body) : undefined,
        });
        if (answer.status >= 502) throw new Error(`${method} ${path}: ${answer.status} `);
        return answer;
      });
      answers.push([`${method} ${path}`, response.status]);
    }
    // Taken (409 domain_taken), or B has no domain to verify or remove (404).
    expect(answers).toEqual([
      ['PUT /api/domain', 409],
      ['PUT /api/domain', 409],
      ['POST /api/domain/verify', 404],
      ['DELETE /api/domain', 404],
    ]);
    expect(await domainSettings(a.seller)).toEqual(before);
    for (const [method, path] of [
      ['GET', '/api/domain'],
      ['PUT', '/api/domain'],
      ['POST', '/api/domain/verify'],
      ['DELETE', '/api/domain'],
    ] as const) {
      const anonymous = await fetch(`${cluster.baseUrl}${path}`, {
        method,
        ...(method === 'PUT'
          ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ host }) }
          : {}),
      });
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
    }
    console.log(
      `access matrix: seller B's ${answers.length} calls on seller A's domain were refused; A's domain unchanged`,
    );
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { roleHasRight } from '@lockdrop/auth';
import { API_KEY_SCOPES, type StoreRight, type StoreRole } from '@lockdrop/contracts';
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
import { actFor, buyPlan, downgradeToFree, invite, member, type Person } from './support/team';

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

/**
 * Issue 28's access matrix: members of every role, a read-only member (past the seats after a
 * downgrade), a removed member and an invitee who has not accepted, against every store-scoped
 * route family, through the gateway of the two-replica cluster. What each role may do comes
 * from libs/auth's role table (`roleHasRight`); identity's team routes follow identity's own
 * rule (owner and admin manage, the owner alone hands the store on or keeps a member).
 */
describe('team members against every store route family', () => {
  /** What a route needs: a store right from the table, or one of identity's team rules. */
  type Need = StoreRight | 'team:member' | 'team:manage' | 'team:owner';
  interface Store {
    id: string;
    productId: string;
  }
  interface Route {
    family: string;
    method: string;
    path: (store: Store) => string;
    body?: unknown;
    need: Need;
    /** The answer once past the rights: the store's own data (200) or the route's own "no such thing". */
    allowed: number;
    /** A list whose answer must hold the store's product: the session really works for the store. */
    holdsProduct?: true;
  }
  const random = () => randomUUID();
  /** Store T's brand handle, saved by whoever may (the same each time: idempotent). */
  const brandHandle = `chaos-team-${randomBytes(4).toString('hex')}`;
  /** A delivery id no store has (the grid keys rows by path, so it stays the same). */
  const missingDelivery = `msg_${randomBytes(16).toString('hex')}`;
  const ROUTES: Route[] = [
    {
      family: 'catalog products',
      method: 'GET',
      path: () => '/api/products/mine',
      need: 'products:read',
      allowed: 200,
      holdsProduct: true,
    },
    {
      family: 'catalog products',
      method: 'POST',
      path: () => `/api/products/${random()}/status`,
      body: { status: 'draft' },
      need: 'products:write',
      allowed: 404,
    },
    {
      family: 'delivery files',
      method: 'GET',
      path: () => '/api/uploads/usage',
      need: 'files:read',
      allowed: 200,
    },
    {
      family: 'delivery files',
      method: 'DELETE',
      path: () => `/api/uploads/${random()}`,
      need: 'files:write',
      allowed: 404,
    },
    {
      family: 'discounts',
      method: 'GET',
      path: () => '/api/discount-codes',
      need: 'discounts:read',
      allowed: 200,
    },
    {
      family: 'discounts',
      method: 'DELETE',
      path: () => `/api/discount-codes/${random()}`,
      need: 'discounts:write',
      allowed: 404,
    },
    {
      family: 'sales',
      method: 'GET',
      path: () => '/api/purchases/sales',
      need: 'sales:read',
      allowed: 200,
    },
    {
      family: 'sales',
      method: 'GET',
      path: () => '/api/purchases/sales/export.csv',
      need: 'exports:read',
      allowed: 200,
    },
    {
      family: 'refunds',
      method: 'POST',
      path: () => `/api/purchases/${random()}/refund`,
      need: 'refunds:write',
      allowed: 404,
    },
    {
      family: 'payouts',
      method: 'GET',
      path: () => '/api/payouts/balances',
      need: 'payouts:read',
      allowed: 200,
    },
    {
      family: 'payouts',
      method: 'GET',
      path: () => '/api/payouts/export.csv',
      need: 'exports:read',
      allowed: 200,
    },
    // No available balance (or a fresh destination's hold): refused for the money, not the role.
    {
      family: 'payouts',
      method: 'POST',
      path: () => '/api/payouts/withdraw',
      need: 'payouts:write',
      allowed: 409,
    },
    {
      family: 'payout destination',
      method: 'GET',
      path: () => '/api/payouts/destination',
      need: 'store:owner',
      allowed: 200,
    },
    {
      family: 'billing',
      method: 'GET',
      path: () => '/api/billing/plan',
      need: 'store:owner',
      allowed: 200,
    },
    // What speaks for the store but is not ownership, billing or payouts: admin and owner.
    {
      family: 'brand',
      method: 'GET',
      path: () => '/api/brand',
      need: 'brand:manage',
      allowed: 200,
    },
    {
      family: 'brand',
      method: 'PUT',
      path: () => '/api/brand',
      body: { handle: brandHandle, name: 'Chaos Team Store' },
      need: 'brand:manage',
      allowed: 200,
    },
    {
      family: 'custom domain',
      method: 'GET',
      path: () => '/api/domain',
      need: 'domain:manage',
      allowed: 200,
    },
    // No image sent: refused for the missing file, past the role check.
    {
      family: 'delivery brand logo',
      method: 'POST',
      path: () => '/api/brand-logos',
      need: 'brand:manage',
      allowed: 400,
    },
    {
      family: 'analytics',
      method: 'GET',
      path: () => '/api/analytics/overview',
      need: 'analytics:read',
      allowed: 200,
    },
    {
      family: 'worker webhook endpoints',
      method: 'GET',
      path: () => '/api/webhook-endpoints',
      need: 'webhooks:manage',
      allowed: 200,
    },
    {
      family: 'worker webhook endpoints',
      method: 'DELETE',
      path: () => `/api/webhook-endpoints/${random()}`,
      need: 'webhooks:manage',
      allowed: 404,
    },
    {
      family: 'worker webhook endpoints',
      method: 'POST',
      path: () => `/api/webhook-endpoints/${random()}/rotate-secret`,
      need: 'webhooks:manage',
      allowed: 404,
    },
    {
      family: 'worker webhook endpoints',
      method: 'POST',
      path: () => `/api/webhook-endpoints/${random()}/reveal-secret`,
      need: 'webhooks:manage',
      allowed: 404,
    },
    {
      family: 'worker webhook endpoints',
      method: 'GET',
      path: () => '/api/webhook-deliveries',
      need: 'webhooks:manage',
      allowed: 200,
    },
    {
      family: 'worker webhook endpoints',
      method: 'POST',
      path: () => `/api/webhook-deliveries/${missingDelivery}/redeliver`,
      need: 'webhooks:manage',
      allowed: 404,
    },
    {
      family: 'identity API keys',
      method: 'GET',
      path: () => '/api/auth/api-keys',
      need: 'api-keys:manage',
      allowed: 200,
    },
    // A test key (every plan has them), made for the store by whoever may.
    {
      family: 'identity API keys',
      method: 'POST',
      path: () => '/api/auth/api-keys',
      body: { name: 'chaos team matrix', mode: 'test', scopes: ['products:read'] },
      need: 'api-keys:manage',
      allowed: 201,
    },
    {
      family: 'identity API keys',
      method: 'DELETE',
      path: () => `/api/auth/api-keys/${random()}`,
      need: 'api-keys:manage',
      allowed: 404,
    },
    {
      family: 'identity team',
      method: 'GET',
      path: (store) => `/api/auth/stores/${store.id}/members`,
      need: 'team:member',
      allowed: 200,
    },
    {
      family: 'identity audit',
      method: 'GET',
      path: (store) => `/api/auth/stores/${store.id}/audit`,
      need: 'team:manage',
      allowed: 200,
    },
    // To someone who is not an admin of the store: refused for the target, past the role check.
    {
      family: 'identity owner',
      method: 'POST',
      path: (store) => `/api/auth/stores/${store.id}/owner`,
      body: { userId: random() },
      need: 'team:owner',
      allowed: 409,
    },
    {
      family: 'identity keep',
      method: 'POST',
      path: (store) => `/api/auth/stores/${store.id}/members/${random()}/keep`,
      need: 'team:owner',
      allowed: 404,
    },
  ];

  function roleMay(role: StoreRole, need: Need): boolean {
    if (need === 'team:member') return true;
    if (need === 'team:manage') return role === 'owner' || role === 'admin';
    if (need === 'team:owner') return role === 'owner';
    return roleHasRight(role, need);
  }

  interface Answer {
    status: number;
    code: string | undefined;
    text: string;
  }
  async function call(who: Browser, route: Route, store: Store): Promise<Answer> {
    return persistently(async () => {
      const response = await who.request(route.path(store), {
        method: route.method,
        ...(route.body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(route.body) }),
      });
      if (response.status === 502 || response.status === 503)
        throw new Error(`${route.method} ${route.path(store)}: ${response.status} `);
      const text = await response.text();
      let code: string | undefined;
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
      } catch {
        code = undefined;
      }
      return { status: response.status, code, text };
    });
  }

  let team: Store;
  let readOnlyStore: Store;
  const subjects: Array<{ name: string; role: StoreRole; who: Person; store: () => Store }> = [];
  let exMember: Person;
  let invitee: Person;

  beforeAll(async () => {
    // Store T on Business (unlimited seats), handed by its account to an admin, so the owner
    // is one by transfer and the account that made it acts as its admin.
    const [shopT, shopS] = await Promise.all([
      openShop(cluster, 'team-t'),
      openShop(cluster, 'team-s'),
    ]);
    team = { id: shopT.sellerId, productId: shopT.productId };
    readOnlyStore = { id: shopS.sellerId, productId: shopS.productId };
    await Promise.all([buyPlan(cluster, shopT, 'business'), buyPlan(cluster, shopS, 'pro')]);
    const joined = await Promise.all([
      member(cluster, team.id, shopT.seller, 'new-owner', 'admin'),
      member(cluster, team.id, shopT.seller, 'editor', 'editor'),
      member(cluster, team.id, shopT.seller, 'support', 'support'),
      member(cluster, team.id, shopT.seller, 'accountant', 'accountant'),
      member(cluster, team.id, shopT.seller, 'ex-member', 'editor'),
      invite(cluster, team.id, shopT.seller, 'invitee', 'editor'),
      member(cluster, readOnlyStore.id, shopS.seller, 'read-only', 'editor'),
    ]);
    const [newOwner, editor, support, accountant, removed, invited, readOnly] = joined;
    exMember = removed!;
    invitee = invited!;
    const founder: Person = { browser: shopT.seller, userId: shopT.sellerId, email: '' };
    // The account signed up minutes ago: its proof of identity is recent enough to transfer.
    await founder.browser.json(`/api/auth/stores/${team.id}/owner`, { userId: newOwner!.userId });
    expect(await actFor(newOwner!, team.id)).toBe('owner');
    // The removed member's session still holds its acting token, well before its expiry.
    const removal = await newOwner!.browser.request(
      `/api/auth/stores/${team.id}/members/${exMember.userId}`,
      { method: 'DELETE' },
    );
    expect(removal.status).toBe(204);
    // Store S back to Free: its only member is past the seats, read-only.
    await downgradeToFree(cluster, shopS);
    await waitFor(
      async () => (await actFor(readOnly!, readOnlyStore.id)) === 'accountant',
      30_000,
      'the member past the seats to act read-only',
    );
    subjects.push(
      { name: 'owner (by transfer)', role: 'owner', who: newOwner!, store: () => team },
      { name: 'admin (the founder)', role: 'admin', who: founder, store: () => team },
      { name: 'editor', role: 'editor', who: editor!, store: () => team },
      { name: 'support', role: 'support', who: support!, store: () => team },
      { name: 'accountant', role: 'accountant', who: accountant!, store: () => team },
      {
        name: 'read-only (past the seats)',
        role: 'accountant',
        who: readOnly!,
        store: () => readOnlyStore,
      },
    );
  });

  it('answers every member per the role table, refuses a removed member at once and an invitee everything', async () => {
    const lines: string[] = [];
    const failures: string[] = [];
    let cells = 0;
    // Each route's row: the status each member got, in the subjects' order.
    const grid = new Map<string, number[]>(
      ROUTES.map((route) => [
        `${route.method} ${route.path(team).replace(/[0-9a-f-]{36}/g, ':id')}`,
        [],
      ]),
    );
    for (const subject of subjects) {
      const store = subject.store();
      let allowedCount = 0;
      for (const route of ROUTES) {
        cells += 1;
        const may = roleMay(subject.role, route.need);
        const answer = await call(subject.who.browser, route, store);
        grid
          .get(`${route.method} ${route.path(team).replace(/[0-9a-f-]{36}/g, ':id')}`)!
          .push(answer.status);
        const expected = may
          ? { status: route.allowed }
          : { status: 403, code: 'not_allowed_for_role' };
        const got = may ? { status: answer.status } : { status: answer.status, code: answer.code };
        const cell = `${subject.name} × ${route.method} ${route.path(store).replace(/[0-9a-f-]{36}/g, ':id')} (${route.need})`;
        if (JSON.stringify(got) !== JSON.stringify(expected))
          failures.push(
            `${cell}: expected ${JSON.stringify(expected)}, got ${answer.status} ${answer.text.slice(0, 160)}`,
          );
        if (may && route.holdsProduct && !answer.text.includes(store.productId))
          failures.push(`${cell}: the list does not hold the store's product`);
        if (may) allowedCount += 1;
      }
      lines.push(`${subject.name.padEnd(28)} ${allowedCount}/${ROUTES.length} allowed`);
    }

    // Removed: refused on the very next request, with the token it still holds. The gateway
    // refuses it before any service (403 store_membership_ended); identity's own routes check
    // the session themselves, which no longer acts for the store: the token stands for nothing
    // there (401), and refresh gives the person their own account back.
    const identityRoute = (route: Route) => route.path(team).startsWith('/api/auth/');
    const exRefusals = new Map<string, number>();
    for (const route of ROUTES) {
      cells += 1;
      const answer = await call(exMember.browser, route, team);
      const expected = identityRoute(route)
        ? { status: 401, code: 'unauthorized' }
        : { status: 403, code: 'store_membership_ended' };
      if (answer.status === expected.status && answer.code === expected.code)
        exRefusals.set(expected.code, (exRefusals.get(expected.code) ?? 0) + 1);
      else
        failures.push(
          `ex-member × ${route.method} ${route.path(team)}: expected ${JSON.stringify(expected)}, got ${answer.status} ${answer.text.slice(0, 160)}`,
        );
    }
    lines.push(
      `${'ex-member (removed)'.padEnd(28)} 0/${ROUTES.length} allowed (${[...exRefusals].map(([code, count]) => `${count} ${code}`).join(', ')})`,
    );

    // Not accepted: cannot act for the store; their own session finds none of its things.
    const act = await invitee.browser.request(`/api/auth/stores/${team.id}/act`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(act.status).toBe(404);
    let inviteeChecked = 0;
    // Another store's things by their ids: not found — catalog alone says the product is
    // someone else's (403 forbidden), as it always has to a signed-in seller.
    const foreign: Array<[string, string, unknown, number]> = [
      ['POST', `/api/products/${team.productId}/status`, { status: 'draft' }, 403],
      ['GET', `/api/auth/stores/${team.id}/members`, undefined, 404],
      ['GET', `/api/auth/stores/${team.id}/audit`, undefined, 404],
      ['POST', `/api/auth/stores/${team.id}/members/${invitee.userId}/keep`, undefined, 404],
      ['POST', `/api/auth/stores/${team.id}/owner`, { userId: invitee.userId }, 404],
    ];
    for (const [method, path, body, expected] of foreign) {
      cells += 1;
      inviteeChecked += 1;
      const answer = await call(
        invitee.browser,
        {
          family: 'invitee',
          method,
          path: () => path,
          body,
          need: 'team:member',
          allowed: expected,
        },
        team,
      );
      if (answer.status !== expected)
        failures.push(
          `invitee × ${method} ${path}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 160)}`,
        );
    }
    for (const route of ROUTES.filter(
      (candidate) => candidate.method === 'GET' && !candidate.path(team).includes(team.id),
    )) {
      cells += 1;
      inviteeChecked += 1;
      const answer = await call(invitee.browser, route, team);
      if (
        answer.status >= 500 ||
        answer.text.includes(team.productId) ||
        answer.text.includes(team.id)
      )
        failures.push(
          `invitee × GET ${route.path(team)}: ${answer.status} shows the store's things`,
        );
    }
    lines.push(
      `${'invitee (not accepted)'.padEnd(28)} cannot act (404); ${inviteeChecked} own-session calls show none of the store`,
    );

    const width = Math.max(...[...grid.keys()].map((key) => key.length));
    const header = subjects
      .map((subject) => subject.name.split(' ')[0]!.slice(0, 10).padStart(12))
      .join('');
    const rows = [...grid].map(
      ([key, statuses]) =>
        `${key.padEnd(width)}${statuses.map((status) => String(status).padStart(12)).join('')}`,
    );
    console.log(
      `team access matrix: ${cells} cells, ${ROUTES.length} routes in ${new Set(ROUTES.map((route) => route.family)).size} families\n  ` +
        lines.join('\n  ') +
        `\n  ${''.padEnd(width)}${header}\n  ` +
        rows.join('\n  '),
    );
    expect(failures).toEqual([]);
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES, startCluster, type Cluster } from './support/cluster';
import { openCheckouts, openShop, providerCharges, webhookStorm, type Shop } from './support/shop';
import { buyPlan, member, type Person } from './support/team';

/**
 * Every public endpoint (the union of the services' OpenAPI documents), called through the
 * gateway with malformed, oversized and hostile input by fast-check: never a 5xx, no replica
 * restarts, and a rejected request changes nothing that was stored. The fuzzing seller has a
 * team (Business, one admin), and path parameters are now and then real ids (the store, the
 * member, the product), so the team routes (`…/owner`, `…/keep`, the audit query) are reached
 * past their validation too.
 */
let cluster: Cluster;
let shop: Shop;
let teammate: Person;

interface Operation {
  method: string;
  /** OpenAPI's template, e.g. `/api/products/{id}`. */
  path: string;
  params: string[];
  bodyKeys: string[] | null;
}

beforeAll(async () => {
  cluster = await startCluster();
  shop = await openShop(cluster, 'fuzz');
  await buyPlan(cluster, shop, 'business');
  teammate = await member(cluster, shop.sellerId, shop.seller, 'fuzz-admin', 'admin');
  // A sale, so purchase, ledger and entitlement tables hold rows a bad request could touch.
  const { txRefs } = await openCheckouts(cluster, shop.productId, 2);
  await webhookStorm(cluster, await providerCharges(cluster, txRefs));
});
afterAll(async () => {
  await cluster?.stop();
});

// Requests that succeed whatever their input and end the fuzzing seller's session.
const SESSION_ENDERS = new Set(['POST /api/auth/sign-out', 'DELETE /api/auth/sessions']);

async function publicOperations(): Promise<Operation[]> {
  const operations = new Map<string, Operation>();
  for (const service of SERVICES) {
    const response = await fetch(`${cluster.replicaUrl(service, 'a')}/openapi.json`);
    const document = (await response.json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string }[];
            requestBody?: {
              content?: Record<string, { schema?: { properties?: Record<string, unknown> } }>;
            };
          }
        >
      >;
    };
    for (const [path, methods] of Object.entries(document.paths ?? {})) {
      // The gateway's proxy catch-alls (`/api/auth/{*}`, every method) stand for the services'
      // own operations, listed by them.
      if (path.includes('{*}') || path.endsWith('/')) continue;
      for (const [method, operation] of Object.entries(methods)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (SESSION_ENDERS.has(key.replace(/\{[^}]+\}/g, ':param'))) continue;
        const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
        operations.set(key, {
          method: method.toUpperCase(),
          path,
          params: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!),
          bodyKeys: operation.requestBody ? Object.keys(schema?.properties ?? {}) : null,
        });
      }
    }
  }
  return [...operations.values()];
}

/** The stored business state: a rejected request must leave every digest as it was. */
const STATE_TABLES = [
  'identity.users',
  'catalog.products',
  'catalog.store_brands',
  'catalog.store_domains',
  'payments.checkouts',
  'payments.purchases',
  'payments.ledger_entries',
  'payments.payouts',
  'payments.payout_destinations',
  'delivery.files',
  'delivery.entitlements',
  'identity.store_members',
  'identity.store_owners',
  'identity.store_invites',
  'identity.audit_log',
];
// One statement for every table (two per rejected request, thousands of requests): a round
// trip per table was most of the suite's time.
const DIGEST_QUERY = STATE_TABLES.map(
  (table) =>
    `SELECT '${table}' AS name, coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM ${table} t`,
).join(' UNION ALL ');
/** Each table's digest, by name: what a rejected request must leave as it was. */
async function stateDigests(): Promise<Record<string, string>> {
  const { rows } = await cluster.db.query<{ name: string; digest: string }>(DIGEST_QUERY);
  return Object.fromEntries(rows.map(({ name, digest }) => [name, digest]));
}

/**
 * Waits until what an accepted request set off elsewhere has landed: its consequences arrive
 * over the bus (the store's audit log hears brand saves and webhook endpoint changes from
 * catalog and the worker), and must not be taken for the next rejected request's doing.
 */
async function settledState(): Promise<Record<string, string>> {
  let last = await stateDigests();
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = await stateDigests();
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '../../../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    "' OR 1=1 --",
    '"; DROP TABLE purchases; --',
    '<script>alert(1)</script>',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '%',
    '%zz',
    '{{7*7}}',
    '${jndi:ldap://x}',
    'null',
    '-1',
    '1e309',
    'NaN',
    '00000000-0000-0000-0000-000000000000',
    'x'.repeat(10_000),
  ),
  fc.uuid(),
);
const hostileValue = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 3 }),
);

/** encodeURIComponent, but a lone surrogate becomes the invalid UTF-8 it would be on the wire. */
function percentEncoded(value: string): string {
  return value
    .split(LONE_SURROGATE)
    .map((part, index) => (index % 2 ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}
const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Body = { contentType: string; payload: string | Uint8Array } | null;

function bodies(keys: string[] | null): fc.Arbitrary<Body> {
  const json = (value: unknown): Body => ({
    contentType: 'application/json',
    payload: JSON.stringify(value),
  });
  return fc.oneof(
    // The fields the endpoint expects, each holding something hostile.
    fc
      .record(
        Object.fromEntries((keys?.length ? keys : ['value']).map((key) => [key, hostileValue])),
      )
      .map(json),
    fc.jsonValue().map(json),
    fc.constantFrom<Body>(
      null,
      { contentType: 'application/json', payload: '{"title": ' },
      { contentType: 'application/json', payload: '' },
      { contentType: 'application/json', payload: `{"a":"${'x'.repeat(3 * 1024 * 1024)}"}` },
      { contentType: 'application/json', payload: '['.repeat(10_000) },
      { contentType: 'text/plain', payload: 'hello' },
      {
        contentType: 'application/xml',
        payload:
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      },
      {
        contentType: 'multipart/form-data; boundary=x',
        payload: '--x\r\ncontent-disposition: form-data; name="file"\r\n\r\nabc',
      },
      { contentType: 'application/x-www-form-urlencoded', payload: 'a=%zz&b=' },
    ),
  );
}

const queries = fc.dictionary(
  fc.constantFrom(
    'currency',
    'tx_ref',
    'code',
    'page',
    'limit',
    'from',
    'to',
    'cursor',
    'actorId',
    'q',
    'x',
  ),
  hostileText,
  { maxKeys: 3 },
);

describe('every public endpoint under hostile input', () => {
  it('never answers 5xx, never crashes a replica, and a rejected request changes nothing', async () => {
    const operations = await publicOperations();
    expect(operations.length).toBeGreaterThan(60);
    // Issue 28's routes are among them (a route missing from a service's document is not fuzzed).
    const listed = new Set(operations.map((operation) => `${operation.method} ${operation.path}`));
    for (const route of [
      'POST /api/auth/stores/{storeId}/owner',
      'POST /api/auth/stores/{storeId}/members/{userId}/keep',
      'GET /api/auth/stores/{storeId}/audit',
      'GET /api/purchases/sales/export.csv',
    ])
      expect(listed, route).toContain(route);
    // Now and then a real id, so a request passes validation and meets the rights and the data.
    const pathValue = fc.oneof(
      { weight: 3, arbitrary: hostileText },
      { weight: 1, arbitrary: fc.constantFrom(shop.sellerId, teammate.userId, shop.productId) },
    );
    const pidsBefore = cluster.pids();
    const cookie = () =>
      [...shop.seller.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let requests = 0;
    let rejected = 0;
    // An accepted request may still be changing state elsewhere when the next one starts.
    let unsettled = false;
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...operation.params.map(() => pathValue)),
          queries,
          bodies(operation.bodyKeys),
          fc.boolean(),
          async (params, query, body, signedIn) => {
            let path = operation.path;
            operation.params.forEach((name, index) => {
              const value = params[index] as string;
              // Half raw (a broken percent-escape reaches the router as is), half escaped.
              path = path.replace(`{${name}}`, index % 2 ? value : percentEncoded(value));
            });
            const url = new URL(cluster.baseUrl);
            url.pathname = path;
            for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
            const before = unsettled ? await settledState() : await stateDigests();
            unsettled = false;
            const headers: Record<string, string> = { origin: cluster.baseUrl };
            if (signedIn) headers.cookie = cookie();
            if (body && operation.method !== 'GET') headers['content-type'] = body.contentType;
            const response = await fetch(url, {
              method: operation.method,
              headers,
              body: body && !['GET', 'HEAD'].includes(operation.method) ? body.payload : undefined,
              redirect: 'manual',
              signal: AbortSignal.timeout(20_000),
            }).catch((error: Error) => {
              throw new Error(
                `${operation.method} ${url.pathname}${url.search} (${body?.contentType ?? 'no body'}): ${error.message}`,
              );
            });
            const text = await response.text();
            requests += 1;
            const what = `${operation.method} ${url.pathname}${url.search} → ${response.status} ${text.slice(0, 300)}`;
            expect(response.status, what).toBeLessThan(500);
            if (response.status < 400 && !['GET', 'HEAD'].includes(operation.method))
              unsettled = true;
            if (response.status >= 400) {
              rejected += 1;
              if (
                operation.method !== 'HEAD' &&
                response.headers.get('content-type')?.includes('json')
              )
                expect(parsedOrText(text), what).toHaveProperty('error.code');
              const after = await stateDigests();
              const changed = STATE_TABLES.filter((table) => after[table] !== before[table]);
              expect(changed, `state changed by ${what}`).toEqual([]);
            }
          },
        ),
        { numRuns: 40, endOnFailure: true },
      );
    }
    expect(cluster.pids()).toEqual(pidsBefore);
    console.log(
      `fuzzing: ${operations.length} endpoints, ${requests} hostile requests, ${rejected} rejected with a 4xx and no state change, 0 answered 5xx, 0 replicas restarted`,
    );
  });
});

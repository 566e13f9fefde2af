import { randomUUID } from 'node:crypto';
import { loadConfig } from '@lockdrop/config';
import { createTokenVerifier } from '@lockdrop/auth';
import { connectBus, type Bus } from '@lockdrop/bus';
import {
  createEvent,
  type ApiKeyMode,
  type ApiKeyScope,
  type CommandRequest,
  type DomainEvent,
  type EventData,
  type PlanId,
  type StoreRole,
} from '@lockdrop/contracts';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { mailboxSchema } from '@lockdrop/mailer';
import { serviceSchemas } from '@lockdrop/service';
import {
  createTestDatabase,
  serviceTestEnv,
  deleteStreams,
  productSnapshotData,
  startTestIssuer,
  testEnv,
  testNamespace,
  waitFor,
  type TestDatabase,
} from '@lockdrop/testing';
import { buildApp } from '../src/app.js';
import { configSchema } from '../src/config.js';
import { migrations } from '../src/db/migrations/index.js';

export interface TestUser {
  id: string;
  email: string;
  emailVerified?: boolean;
  plan?: PlanId;
  /** The token's `auth_time` (last proof of identity); default now, null leaves it out. */
  authTime?: Date | null;
  /** An API key's internal token (the gateway's `/api/v1` door) instead of a session's. */
  apiKey?: { scopes: ApiKeyScope[]; mode: ApiKeyMode };
  /** A team member acting for the store `id` names (issue 28). */
  actor?: { id: string; role: StoreRole };
}

/** One test file's payments service: its own database, bus namespace, keys, listening on a real port. */
/** Test-side view of a JSON response: the assertions check the shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are matched by type, then fields asserted
export type SeenEvent = DomainEvent & { data: any };

export interface Harness {
  app: HttpServer;
  url: string;
  /** The test database's URL, for operator commands run against it. */
  databaseUrl: string;
  pool: Pool;
  bus: Bus;
  /** Events payments published, as seen on the bus. */
  published: SeenEvent[];
  clock: { offsetMs: number };
  /**
   * Stands in for delivery on the `access.suspend_for_refund` contract (libs/contracts): records
   * each hold it is asked for, and answers only while `answering` is true. The real answer is
   * delivery's own test; the two together are the contract.
   */
  accessHolds: { answering: boolean; requests: CommandRequest<'access.suspend_for_refund'>[] };
  token(user: TestUser): Promise<string>;
  publishProduct(
    overrides?: Partial<EventData<'product.published'>>,
  ): Promise<EventData<'product.published'>>;
  publish(event: DomainEvent): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const database: TestDatabase = await createTestDatabase({
    schemas: serviceSchemas({ name: 'payments', migrations, sharedSchemas: [mailboxSchema] }),
  });
  const namespace = testNamespace();
  const issuer = await startTestIssuer();
  const clock = { offsetMs: 0 };
  const config = loadConfig(configSchema, {
    ...serviceTestEnv({ databaseUrl: database.url, namespace }),
    RECONCILE_INTERVAL_MS: '200',
    WEBHOOK_RETRY_BASE_MS: '100',
    ...env,
  });
  const app = await buildApp(config, {
    verifier: createTokenVerifier({ jwks: issuer.jwks }),
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const pool = createPool({ connectionString: database.url, schema: 'payments', max: 4 });
  const bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'payments-test' });
  const published: SeenEvent[] = [];
  const observers = await Promise.all(
    (
      [
        'checkout.started',
        'purchase.*',
        'payout.*',
        'subscription.*',
        'plan.changed',
        'audit.*',
      ] as const
    ).map((filter, index) =>
      bus.subscribe({
        consumer: `test.observer${index}`,
        filter,
        pool,
        handler: async (event) => {
          published.push(event);
        },
      }),
    ),
  );

  const publish = (event: DomainEvent) => bus.publish(event);
  const accessHolds: Harness['accessHolds'] = { answering: true, requests: [] };
  bus.serve('access.suspend_for_refund', async (hold) => {
    if (!accessHolds.answering) throw new Error('delivery is down');
    accessHolds.requests.push(hold);
    return { suspended: true };
  });

  return {
    app,
    url,
    databaseUrl: database.url,
    pool,
    bus,
    published,
    clock,
    accessHolds,
    async token(user) {
      const { token } = await issuer.account({
        id: user.id,
        email: user.email,
        emailVerified: user.emailVerified,
        plan: user.plan,
        expiresIn: '15m',
        ...(user.authTime !== undefined ? { authTime: user.authTime } : {}),
        ...(user.apiKey ? { apiKey: user.apiKey } : {}),
        ...(user.actor ? { actor: user.actor } : {}),
      });
      return token;
    },
    async publishProduct(overrides = {}) {
      const product: EventData<'product.published'> = productSnapshotData({
        title: 'Lagos street photography pack',
        priceMinor: 500_000,
        currency: 'NGN',
        fileName: 'lagos-pack.zip',
        fileSizeBytes: 12_345_678,
        ...overrides,
      });
      await publish(createEvent('product.published', product, { correlationId: randomUUID() }));
      await waitFor(async () => {
        const { rows } = await pool.query('SELECT status FROM products WHERE id = $1', [
          product.productId,
        ]);
        return rows[0]?.status === product.status;
      });
      return product;
    },
    publish,
    async close() {
      await Promise.all(observers.map((observer) => observer.stop()));
      await app.close();
      await bus.close();
      await pool.end();
      await issuer.close();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
    },
  };
}

export const fetchJson = (url: string, init?: RequestInit): Promise<JsonResponse> =>
  fetch(url, init);

export { waitFor };

/** A seller the tests act as: payments trusts identity's token and keeps no account row. */
export function newSeller(email?: string): TestUser {
  const id = randomUUID();
  return { id, email: email ?? `seller-${id.slice(0, 8)}@example.com` };
}

/** `user` calls payments' HTTP API with a JSON body, as the gateway forwards a signed-in request. */
export async function callAs(
  harness: Harness,
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  return fetchJson(`${harness.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await harness.token(user)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Saves a Nigerian bank account as `seller`'s payout destination the way the screen does: resolve, then save. */
export async function saveBankDestination(
  harness: Harness,
  seller: TestUser,
  accountNumber = '0123456789',
  bankCode = '058',
) {
  const resolved = await callAs(harness, seller, 'POST', '/api/payouts/resolve-account', {
    bankCode,
    accountNumber,
  });
  if (resolved.status !== 200) throw new Error(`resolve-account answered ${resolved.status}`);
  const { accountName } = await resolved.json();
  const saved = await callAs(harness, seller, 'PUT', '/api/payouts/destination', {
    method: 'bank',
    bankCode,
    accountNumber,
    accountName,
  });
  if (saved.status !== 200) throw new Error(`saving the destination answered ${saved.status}`);
  return (await saved.json()).destination;
}

/** A tiny cookie-keeping HTTP client against the real listening server (like a browser). */
export function browser(baseUrl: string) {
  const cookies = new Map<string, string>();
  const request = async (path: string, init: RequestInit = {}): Promise<JsonResponse> => {
    const headers = new Headers(init.headers);
    if (cookies.size)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(path, baseUrl), { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      cookies.set(name!.trim(), value!.trim());
    }
    return response;
  };
  return {
    cookies,
    request,
    postJson: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    /** Submits one of the sandbox page's forms, as a browser would. */
    submitForm: (path: string) =>
      request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      }),
  };
}

/** Ledger lines per purchase and kind: the sum is zero when the journal balances. */
export async function ledgerOf(pool: Pool, purchaseId: string) {
  const { rows } = await pool.query<{ kind: string; account: string; amount_minor: number }>(
    'SELECT kind, account, amount_minor FROM ledger_entries WHERE purchase_id = $1 ORDER BY id',
    [purchaseId],
  );
  return rows;
}

/** A paid purchase through the sandbox, as a buyer makes it; returns the product and purchase. */
export async function sell(
  harness: Harness,
  productOverrides: Partial<EventData<'product.published'>> = {},
  buyerEmail = `buyer-${randomUUID()}@example.com`,
) {
  const product = await harness.publishProduct(productOverrides);
  return { product, buyerEmail, ...(await buy(harness, product.productId, buyerEmail)) };
}

/** `buyerEmail` buys product `productId` in the sandbox; resolves once the purchase is paid. */
export async function buy(harness: Harness, productId: string, buyerEmail: string) {
  const buyer = browser(harness.url);
  const { txRef } = await (await buyer.postJson('/api/checkout', { productId, buyerEmail })).json();
  await buyer.submitForm(`/sandbox/checkout/${txRef}/pay`);
  let purchaseId = '';
  await waitFor(async () => {
    const { rows } = await harness.pool.query(
      `SELECT id FROM purchases WHERE tx_ref = $1 AND status = 'paid'`,
      [txRef],
    );
    purchaseId = rows[0]?.id;
    return Boolean(purchaseId);
  });
  return { buyer, txRef, purchaseId };
}

/** E-mails the mail relay delivered to `recipient` (the development mailbox), oldest first. */
export async function mailTo(pool: Pool, recipient: string) {
  const { rows } = await pool.query<{ subject: string; text_body: string }>(
    'SELECT subject, text_body FROM mailbox.messages WHERE recipient = $1 ORDER BY id',
    [recipient],
  );
  return rows;
}

/**
 * A seller identity has told payments about (`profile.updated`), with one published product;
 * `contactEmail` when the store was handed to another owner (issue 28).
 */
export async function sellerWithEmail(
  harness: Harness,
  { contactEmail }: { contactEmail?: string } = {},
) {
  const email = `seller-${randomUUID()}@example.com`;
  const product = await harness.publishProduct({ title: `Ebook ${randomUUID().slice(0, 6)}` });
  await harness.publish(
    createEvent(
      'profile.updated',
      {
        userId: product.ownerId,
        email,
        emailVerified: true,
        fullName: 'Ada Seller',
        avatarUrl: null,
        plan: 'free',
        ...(contactEmail ? { contactEmail } : {}),
      },
      { correlationId: randomUUID() },
    ),
  );
  await waitFor(
    async () =>
      (
        await harness.pool.query('SELECT 1 FROM sellers WHERE user_id = $1 AND email = $2', [
          product.ownerId,
          contactEmail ?? email,
        ])
      ).rows.length === 1,
  );
  const headers = {
    authorization: `Bearer ${await harness.token({ id: product.ownerId, email })}`,
    'content-type': 'application/json',
  };
  return { email, product, headers };
}

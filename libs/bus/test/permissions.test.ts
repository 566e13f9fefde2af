import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEvent } from '@lockdrop/contracts';
import { createPool, migrate, type Pool } from '@lockdrop/db';
import {
  createTestDatabase,
  freePort,
  productSnapshotData,
  testNamespace,
  waitFor,
  type TestDatabase,
} from '@lockdrop/testing';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  busMigrations,
  type busRoles,
  connectBus,
  envBusUsers,
  natsHelmValues,
  natsAuth,
  natsAuthorization,
  randomBusUsers,
  streamNames,
  type Bus,
  type BusRoleName,
} from '../src/index.js';
import { makePurchasePaid } from './support.js';

/**
 * The generated authorization block, loaded by a real nats-server (the machine's binary), and
 * real clients logging in as each service: what the table allows works, what it does not is
 * refused by the server itself — not by our client code, which a taken-over gateway would not run.
 */
const namespace = testNamespace();
const users = randomBusUsers();
const password = (role: BusRoleName) => users.find((user) => user.role === role)!.password;
const auth = (role: BusRoleName) => natsAuth(role, password(role));

let server: ChildProcess;
let db: TestDatabase;
let pool: Pool;
let directory: string;
let url: string;
const opened: Array<{ close(): Promise<void> }> = [];

async function startServer(): Promise<void> {
  directory = await mkdtemp(path.join(tmpdir(), 'lockdrop-nats-auth-'));
  const port = await freePort();
  const config = path.join(directory, 'nats.conf');
  await writeFile(
    config,
    [
      `listen: 127.0.0.1:${port}`,
      `jetstream { store_dir: ${JSON.stringify(directory)} }`,
      natsAuthorization({ namespace, users }),
    ].join('\n'),
  );
  server = spawn('nats-server', ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  url = `nats://127.0.0.1:${port}`;
  await waitFor(
    () => {
      if (server.exitCode !== null) throw new Error(`nats-server exited:\n${output}`);
      return output.includes('Server is ready');
    },
    15_000,
    'nats-server ready',
  );
}

/** A raw client logged in as `role`: what a compromised process could send, unfiltered by connectBus. */
async function rawClient(role: BusRoleName): Promise<{ nc: NatsConnection; errors: string[] }> {
  const nc = await connect({ servers: url, ...auth(role) });
  const errors: string[] = [];
  void (async () => {
    for await (const status of nc.status())
      if (status.type === 'error') errors.push(String(status.error));
  })();
  opened.push({ close: () => nc.close() });
  return { nc, errors };
}

async function bus(role: keyof typeof busRoles, manageStreams = true): Promise<Bus> {
  const connected = await connectBus({
    url,
    namespace,
    name: role,
    auth: auth(role),
    manageStreams,
  });
  opened.push(connected);
  return connected;
}

beforeAll(async () => {
  await startServer();
  db = await createTestDatabase();
  pool = createPool({ connectionString: db.url, schema: 'svc', max: 2 });
  await migrate(pool, 'svc', busMigrations);
}, 30_000);

afterAll(async () => {
  for (const connection of opened.reverse()) await connection.close().catch(() => undefined);
  server?.kill('SIGTERM');
  await pool?.end();
  await db?.drop();
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('NATS users generated from the permissions table', () => {
  let payments: Bus;
  let instructionRequests = 0;

  beforeAll(async () => {
    payments = await bus('payments');
    payments.serve('payouts.instruction', async () => {
      instructionRequests += 1;
      return { send: false, status: 'paid' };
    });
  });

  it('refuses a login without a password, or with another user’s', async () => {
    await expect(connect({ servers: url })).rejects.toThrow(/authorization/i);
    await expect(
      connect({ servers: url, user: 'gateway', pass: password('payments') }),
    ).rejects.toThrow(/authorization/i);
  });

  it('lets payments publish purchase.paid (it creates the streams at start)', async () => {
    const event = makePurchasePaid();
    await payments.publish(event);
    const { nc } = await rawClient('operator');
    const info = await (await jetstreamManager(nc)).streams.info(streamNames(namespace).events);
    expect(info.state.messages).toBe(1);
  });

  it('refuses purchase.paid from the gateway, on the server', async () => {
    const { nc, errors } = await rawClient('gateway');
    const forged = makePurchasePaid();
    await expect(
      jetstream(nc).publish(`${namespace}.events.purchase.paid`, JSON.stringify(forged), {
        timeout: 2_000,
      }),
    ).rejects.toThrow(/permission/i);
    await waitFor(() => errors.some((error) => /permissions violation for publish/i.test(error)));
    const { nc: operator } = await rawClient('operator');
    const info = await (
      await jetstreamManager(operator)
    ).streams.info(streamNames(namespace).events);
    // Only the event payments published above.
    expect(info.state.messages).toBe(1);
  });

  it('refuses the gateway a payout instruction, and a look at the worker’s replies', async () => {
    const { nc, errors } = await rawClient('gateway');
    const before = instructionRequests;
    await expect(
      nc.request(
        `${namespace}.commands.payouts.instruction`,
        JSON.stringify({ payoutId: crypto.randomUUID() }),
        { timeout: 2_000 },
      ),
    ).rejects.toThrow(/permission/i);
    // Nor may it read the inbox the worker's answers arrive in, or answer in payments' place.
    const snoop = nc.subscribe('_INBOX_worker.>');
    const impersonate = nc.subscribe(`${namespace}.commands.payouts.instruction`);
    await waitFor(
      () =>
        errors.filter((error) => /permissions violation for subscription/i.test(error)).length >= 2,
    );
    expect(snoop.isClosed() || impersonate.isClosed()).toBe(true);
    expect(instructionRequests).toBe(before);
  });

  it('lets the worker ask payments for a payout instruction', async () => {
    const worker = await bus('worker');
    const before = instructionRequests;
    await expect(
      worker.request('payouts.instruction', { payoutId: crypto.randomUUID() }),
    ).resolves.toEqual({ send: false, status: 'paid' });
    expect(instructionRequests).toBe(before + 1);
  });

  it('lets each service consume as its own durables only, wildcard filters included', async () => {
    const worker = await bus('worker');
    const seen: string[] = [];
    // `purchase.*` is a `…purchase.>` filter in the consumer-create subject.
    await worker.subscribe({
      consumer: 'worker.webhooks-purchase',
      filter: 'purchase.*',
      pool,
      batchHandler: async (events) => {
        seen.push(...events.map((event) => event.id));
      },
    });
    await waitFor(() => seen.length > 0);
    // Analytics may not pull from delivery's durable, nor make one of its own under that name.
    const { nc, errors } = await rawClient('analytics');
    const events = streamNames(namespace).events;
    await expect(
      nc.request(`$JS.API.CONSUMER.INFO.${events}.delivery_purchases-paid`, '', { timeout: 2_000 }),
    ).rejects.toThrow(/permission/i);
    await expect(
      (await jetstreamManager(nc, { checkAPI: false })).consumers.add(events, {
        durable_name: 'analytics_purchases-paid',
        filter_subject: `${namespace}.events.>`,
      }),
    ).rejects.toThrow(/permission/i);
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });

  it('lets the gateway watch product events and publish view counts, without stream rights', async () => {
    const gateway = await bus('gateway', false);
    const catalog = await bus('catalog');
    const watched: string[] = [];
    gateway.watch({
      filters: ['product.created'],
      onEvent: (event) => watched.push(event.id),
      onGap: () => undefined,
    });
    // A plain subscription is live once the server has it, which the watch does not wait for:
    // publish until the gateway sees one (a single publish raced the subscription under load).
    const created = createEvent('product.created', productSnapshotData(), {
      correlationId: crypto.randomUUID(),
    });
    const published = [created.id];
    await catalog.publish(created);
    await waitFor(async () => {
      if (watched.some((id) => published.includes(id))) return true;
      const again = createEvent('product.created', productSnapshotData(), {
        correlationId: crypto.randomUUID(),
      });
      published.push(again.id);
      await catalog.publish(again);
      return false;
    });
    await gateway.publish(
      createEvent(
        'storefront.products_viewed',
        {
          views: [
            {
              productId: created.data.productId,
              visitorId: 'a'.repeat(64),
              referrer: null,
              viewedAt: new Date().toISOString(),
              requestId: 'req-1',
            },
          ],
        },
        { correlationId: crypto.randomUUID() },
      ),
    );
  });
});

describe('the committed NATS configurations', () => {
  const repoFile = (file: string) =>
    readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');

  it('are what the table generates today (npm run nats-permissions regenerates them)', () => {
    expect(repoFile('deploy/nats/auth.conf')).toBe(
      natsAuthorization({ namespace: 'lockdrop', users: envBusUsers() }),
    );
    expect(parse(repoFile('deploy/overlays/prod/engines/nats-auth-values.yaml'))).toEqual(
      natsHelmValues({ namespace: 'lockdrop' }),
    );
  });
});

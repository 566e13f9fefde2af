import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp as buildCatalog } from '@lockdrop/catalog/src/app.js';
import { configSchema as catalogConfigSchema } from '@lockdrop/catalog/src/config.js';
import { connectBus } from '@lockdrop/bus';
import { loadConfig } from '@lockdrop/config';
import type { DomainEvent, ExchangeRatesResponse } from '@lockdrop/contracts';
import { createPool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { convertMinor, minorToDecimalString } from '@lockdrop/money';
import {
  createTestDatabase,
  deleteStreams,
  testEnv,
  testNamespace,
  waitFor,
} from '@lockdrop/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@lockdrop/worker/src/app.js';
import { configSchema } from '@lockdrop/worker/src/config.js';
import {
  FX_QUEUE,
  FX_REFRESH_JOB,
  fxRefreshJobOptions,
} from '@lockdrop/worker/src/jobs/fx.jobs.js';
import seedFile from '@lockdrop/worker/seed/exchange-rates.json' with { type: 'json' };

type FxEvent = DomainEvent<'fx.rates.updated'>;
type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/**
 * The worker's exchange-rate job end to end: rates fetched from a source, stored, published
 * and then shown and used by the real catalog service.
 */

/** A rate source on loopback whose answer each test chooses; it records what it was asked. */
async function startFakeSource() {
  let handler: Handler = (_request, response) => response.writeHead(500).end();
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next: Handler) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type FakeSource = Awaited<ReturnType<typeof startFakeSource>>;

const json =
  (body: unknown, status = 200): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

/**
 * One worker process (the real app: Postgres, NATS, BullMQ on Redis) on a database and bus
 * namespace of its own (also the BullMQ prefix), with catalog beside it consuming what it emits
 * and a test-side BullMQ queue to add refresh jobs the way the scheduler does.
 */
async function startStack(env: Record<string, string>) {
  const database = await createTestDatabase();
  const namespace = testNamespace();
  const shared = {
    DATABASE_URL: database.url,
    NATS_URL: testEnv.natsUrl,
    BUS_NAMESPACE: namespace,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  };
  let now: Date | null = null;
  const catalog = await buildCatalog(loadConfig(catalogConfigSchema, shared), {
    now: () => now ?? new Date(),
  });
  const config = loadConfig(configSchema, {
    ...shared,
    REDIS_URL: testEnv.redisUrl,
    FX_JOB_ATTEMPTS: '2',
    FX_BACKOFF_MS: '10',
    FX_TIMEOUT_MS: '300',
    // Midnight on 29 February: the scheduler's own refresh never fires during a run. With the
    // hourly default, a run at the top of the hour counted one failure too many.
    FX_CRON: '0 0 29 2 *',
    ...env,
  });
  const workers: HttpServer[] = [];
  const startWorker = async () => {
    const app = await buildApp(config);
    await app.ready();
    workers.push(app);
    return app;
  };
  const worker = await startWorker();
  const pool = createPool({ connectionString: database.url, schema: 'worker', max: 2 });
  const bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'fx-test' });
  const published: FxEvent[] = [];
  const observer = await bus.subscribe({
    consumer: 'test.fx-observer',
    filter: 'fx.rates.updated',
    pool,
    handler: async (event) => {
      published.push(event as FxEvent);
    },
  });
  const redis = new Redis(testEnv.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(FX_QUEUE, { connection: redis, prefix: namespace });

  return {
    config,
    worker,
    pool,
    published,
    startWorker,
    queue,
    setNow(at: Date | null) {
      now = at;
    },
    /** Adds a refresh as the scheduler does and waits until it completed or used every attempt. */
    async refresh() {
      const job = await queue.add(FX_REFRESH_JOB, {}, fxRefreshJobOptions(config));
      await waitFor(async () => (await job.isCompleted()) || (await job.isFailed()));
      return (await queue.getJob(job.id!))!;
    },
    async history() {
      const { rows } = await pool.query<{
        id: string;
        source: string;
        fetched_at: Date;
        rates: { from: string; to: string; rate: string }[];
      }>('SELECT id, source, fetched_at, rates FROM fx_rate_sets ORDER BY fetched_at');
      return rows;
    },
    async outbox(): Promise<FxEvent[]> {
      const { rows } = await pool.query<{ payload: FxEvent }>(
        `SELECT payload FROM outbox WHERE type = 'fx.rates.updated' ORDER BY created_at`,
      );
      return rows.map((row) => row.payload);
    },
    async exchangeRates(): Promise<ExchangeRatesResponse> {
      return (await catalog.inject({ url: '/api/exchange-rates' })).json();
    },
    /** fx_refresh_failures_total for `reason`, summed over every label set. */
    async failures(reason: string): Promise<number> {
      const text = (await worker.inject({ url: '/metrics' })).body;
      return text
        .split('\n')
        .filter((line) => line.startsWith('fx_refresh_failures_total{'))
        .filter((line) => line.includes(`reason="${reason}"`))
        .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    },
    async close() {
      await observer.stop();
      await queue.close();
      await Promise.all(workers.map((app) => app.close()));
      await catalog.close();
      await bus.close();
      await pool.end();
      const keys = await redis.keys(`${namespace}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
    },
  };
}
type Stack = Awaited<ReturnType<typeof startStack>>;

const SEED_AS_OF = new Date(seedFile.asOf);
const HOUR = 3_600_000;
const rateOf = (list: { from: string; to: string; rate: string }[], to: string) =>
  list.find((rate) => rate.from === 'USD' && rate.to === to)?.rate;

describe('exchange rates from a JSON feed (FX_SOURCE=url)', () => {
  let source: FakeSource;
  let stack: Stack;
  const feed = {
    base: 'USD',
    rates: { EUR: 0.92, GBP: '0.8', NGN: 1550.5, CAD: 1.39, AUD: 1.52, JPY: 150 },
  };

  beforeAll(async () => {
    source = await startFakeSource();
    stack = await startStack({
      FX_SOURCE: 'url',
      FX_URL: `${source.url}/rates.json`,
      FX_CURRENCIES: 'USD,EUR,GBP,NGN,CAD,AUD',
    });
  });
  afterAll(async () => {
    await stack?.close();
    await source?.close();
  });

  it('a fresh install publishes the shipped seed, dated as of the file', async () => {
    const history = await stack.history();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ source: 'seed', fetched_at: SEED_AS_OF });
    expect(rateOf(history[0]!.rates, 'NGN')).toBe(seedFile.rates.NGN);

    await waitFor(() => stack.published.length === 1);
    const [event] = stack.published;
    expect(event).toMatchObject({
      id: history[0]!.id,
      occurredAt: SEED_AS_OF.toISOString(),
      data: { source: 'seed' },
    });
    expect(event!.data.rates).toEqual(history[0]!.rates);

    await waitFor(async () => (await stack.exchangeRates()).rates.length > 0);
    const shown = await stack.exchangeRates();
    expect(rateOf(shown.rates, 'NGN')).toBe(seedFile.rates.NGN);
    expect(shown.asOf).toBe(SEED_AS_OF.toISOString());
  });

  it('a restart or a second replica does not seed again', async () => {
    const second = await stack.startWorker();
    await second.close();
    expect(await stack.history()).toHaveLength(1);
    expect(await stack.outbox()).toHaveLength(1);
  });

  it('says the rates are stale once the newest set is more than 24 hours old', async () => {
    stack.setNow(new Date(SEED_AS_OF.getTime() + 23 * HOUR));
    expect(await stack.exchangeRates()).toMatchObject({ stale: false });
    stack.setNow(new Date(SEED_AS_OF.getTime() + 25 * HOUR));
    expect(await stack.exchangeRates()).toMatchObject({
      stale: true,
      asOf: SEED_AS_OF.toISOString(),
    });
    stack.setNow(null);
  });

  it('runs the refresh on FX_CRON through a BullMQ job scheduler', async () => {
    const scheduler = await stack.queue.getJobScheduler('fx-refresh');
    expect(scheduler).toMatchObject({
      pattern: stack.config.FX_CRON,
      tz: 'UTC',
      name: FX_REFRESH_JOB,
    });
    expect((await stack.worker.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('a refresh stores the set in the history and publishes it to catalog', async () => {
    source.answer(json(feed));
    const job = await stack.refresh();
    expect(await job.isCompleted()).toBe(true);

    const history = await stack.history();
    expect(history).toHaveLength(2);
    const newest = history[1]!;
    expect(newest.source).toBe('url');
    // Only the configured currencies, as exact decimal strings.
    expect(newest.rates).toEqual([
      { from: 'USD', to: 'EUR', rate: '0.92' },
      { from: 'USD', to: 'GBP', rate: '0.8' },
      { from: 'USD', to: 'NGN', rate: '1550.5' },
      { from: 'USD', to: 'CAD', rate: '1.39' },
      { from: 'USD', to: 'AUD', rate: '1.52' },
    ]);

    await waitFor(() => stack.published.length === 2);
    expect(stack.published[1]).toMatchObject({
      id: newest.id,
      occurredAt: newest.fetched_at.toISOString(),
      data: { source: 'url', rates: newest.rates },
    });

    await waitFor(async () => rateOf((await stack.exchangeRates()).rates, 'NGN') === '1550.5');
    stack.setNow(new Date(newest.fetched_at.getTime() + HOUR));
    expect(await stack.exchangeRates()).toMatchObject({
      asOf: newest.fetched_at.toISOString(),
      stale: false,
    });
    stack.setNow(null);
  });

  it('converts with the published rates: direct, inverse, then via USD', async () => {
    const { rates } = await stack.exchangeRates();
    const shown = (amountMinor: number, from: string, to: string) => {
      const conversion = convertMinor(amountMinor, from, to, rates);
      expect(conversion.converted).toBe(true);
      return minorToDecimalString(conversion.amountMinor, conversion.currency);
    };
    expect(shown(1000, 'USD', 'NGN')).toBe('15505.00'); // USD→NGN
    expect(shown(1_550_500, 'NGN', 'USD')).toBe('10.00'); // inverse of USD→NGN
    expect(shown(1000, 'GBP', 'NGN')).toBe('19381.25'); // GBP→USD→NGN: 12.50 USD
    expect(shown(1000, 'EUR', 'GBP')).toBe('8.70'); // 10.87 USD → 8.70 GBP
  });

  const failures: [string, string, Handler][] = [
    ['the source answers 503', 'unavailable', json({ message: 'down' }, 503)],
    ['the source refuses the request', 'refused', json({ message: 'bad key' }, 401)],
    ['the source does not answer in time', 'timeout', () => undefined],
    ['the connection drops', 'unavailable', (request) => request.socket.destroy()],
    [
      'the feed is not JSON',
      'malformed',
      (_request, response) => response.writeHead(200).end('<html>'),
    ],
    ['the feed has another base', 'malformed', json({ ...feed, base: 'EUR' })],
    [
      'a rate is missing',
      'malformed',
      json({ base: 'USD', rates: { ...feed.rates, NGN: undefined } }),
    ],
    ['a rate is zero', 'malformed', json({ base: 'USD', rates: { ...feed.rates, CAD: 0 } })],
    ['a rate is negative', 'malformed', json({ base: 'USD', rates: { ...feed.rates, AUD: -1.5 } })],
    [
      'a rate is not a number',
      'malformed',
      json({ base: 'USD', rates: { ...feed.rates, EUR: 'n/a' } }),
    ],
  ];

  it.each(failures)(
    'when %s, the refresh fails, is retried and counted (%s), and the last good rates stay',
    async (_case, reason, handler) => {
      const before = {
        history: (await stack.history()).length,
        outbox: (await stack.outbox()).length,
        failures: await stack.failures(reason),
        ngn: rateOf((await stack.exchangeRates()).rates, 'NGN'),
      };
      source.answer(handler);
      const job = await stack.refresh();
      expect(await job.isFailed()).toBe(true);
      expect(job.attemptsMade).toBe(stack.config.FX_JOB_ATTEMPTS);
      expect(await stack.failures(reason)).toBe(before.failures + stack.config.FX_JOB_ATTEMPTS);
      // Nothing stored, nothing emitted: the outbox is written in the history row's transaction.
      expect(await stack.history()).toHaveLength(before.history);
      expect(await stack.outbox()).toHaveLength(before.outbox);
      expect(rateOf((await stack.exchangeRates()).rates, 'NGN')).toBe(before.ngn);
    },
  );

  it('a refresh that fails once succeeds on its retry and publishes once', async () => {
    const before = {
      history: (await stack.history()).length,
      failures: await stack.failures('unavailable'),
    };
    let calls = 0;
    source.answer((request, response) => {
      calls += 1;
      if (calls === 1) json({ message: 'busy' }, 502)(request, response);
      else json({ ...feed, rates: { ...feed.rates, NGN: '1601.25' } })(request, response);
    });
    const job = await stack.refresh();
    expect(await job.isCompleted()).toBe(true);
    expect(job.attemptsMade).toBe(2);
    expect(await stack.failures('unavailable')).toBe(before.failures + 1);
    const history = await stack.history();
    expect(history).toHaveLength(before.history + 1);
    expect(rateOf(history.at(-1)!.rates, 'NGN')).toBe('1601.25');
    await waitFor(async () => rateOf((await stack.exchangeRates()).rates, 'NGN') === '1601.25');
  });

  it('a refresh that moves a rate more than FX_MAX_CHANGE_PERCENT is refused, counted, and publishes nothing', async () => {
    const before = {
      history: (await stack.history()).length,
      outbox: (await stack.outbox()).length,
      failures: await stack.failures('implausible'),
    };
    const last = rateOf((await stack.history()).at(-1)!.rates, 'NGN');
    // A glitch in the feed's unit: naira per US cent.
    source.answer(json({ ...feed, rates: { ...feed.rates, NGN: 1_601_250 } }));
    const job = await stack.refresh();
    expect(await job.isFailed()).toBe(true);
    expect(await stack.failures('implausible')).toBe(
      before.failures + stack.config.FX_JOB_ATTEMPTS,
    );
    expect(await stack.history()).toHaveLength(before.history);
    expect(await stack.outbox()).toHaveLength(before.outbox);
    expect(rateOf((await stack.exchangeRates()).rates, 'NGN')).toBe(last);

    // Within the bound (25 % by default) a move is published.
    source.answer(json({ ...feed, rates: { ...feed.rates, NGN: 1_900 } }));
    expect(await (await stack.refresh()).isCompleted()).toBe(true);
    await waitFor(async () => rateOf((await stack.exchangeRates()).rates, 'NGN') === '1900');
  });
});

describe('exchange rates from Flutterwave (FX_SOURCE=flutterwave)', () => {
  const SECRET = 'FLWSECK_TEST-0123456789abcdef-X';
  /** What 1 USD costs in each currency at the fake provider. */
  const quotes: Record<string, number> = { EUR: 0.9213, NGN: 1548.75, GBP: 0.7952 };
  let source: FakeSource;
  let stack: Stack;

  /** Payments contract §5: `data.rate` and the source amount for `amount` of the destination. */
  const transferRates =
    (rateFor: (currency: string) => number = (currency) => quotes[currency]!): Handler =>
    (request, response) => {
      const url = new URL(request.url!, 'http://fake');
      if (request.headers.authorization !== `Bearer ${SECRET}`) {
        json({ status: 'error', message: 'Invalid authorization key', data: null }, 401)(
          request,
          response,
        );
        return;
      }
      const currency = url.searchParams.get('source_currency')!;
      const amount = Number(url.searchParams.get('amount'));
      const rate = rateFor(currency);
      json({
        status: 'success',
        message: 'Transfer amount fetched',
        data: {
          rate,
          source: { currency, amount: Math.round(rate * amount * 100) / 100 },
          destination: { currency: url.searchParams.get('destination_currency'), amount },
        },
      })(request, response);
    };

  beforeAll(async () => {
    source = await startFakeSource();
    stack = await startStack({
      FX_SOURCE: 'flutterwave',
      FLW_BASE_URL: `${source.url}/v3`,
      FLW_SECRET_KEY: SECRET,
      FX_CURRENCIES: 'USD,EUR,NGN,GBP',
    });
  });
  afterAll(async () => {
    await stack?.close();
    await source?.close();
  });

  it('asks for each currency against USD with the secret key and publishes the set', async () => {
    source.answer(transferRates());
    source.requests.length = 0;
    const job = await stack.refresh();
    expect(await job.isCompleted()).toBe(true);
    expect(
      source.requests.map((request) => {
        const url = new URL(request.url!, 'http://fake');
        return [url.pathname, Object.fromEntries(url.searchParams)];
      }),
    ).toEqual(
      ['EUR', 'NGN', 'GBP'].map((currency) => [
        '/v3/transfers/rates',
        { amount: '1', source_currency: currency, destination_currency: 'USD' },
      ]),
    );
    const newest = (await stack.history()).at(-1)!;
    expect(newest).toMatchObject({
      source: 'flutterwave',
      rates: [
        { from: 'USD', to: 'EUR', rate: '0.9213' },
        { from: 'USD', to: 'NGN', rate: '1548.75' },
        { from: 'USD', to: 'GBP', rate: '0.7952' },
      ],
    });
    await waitFor(() => stack.published.some((event) => event.id === newest.id));
  });

  it.each([
    ['one currency is refused', 'refused', json({ status: 'error', message: 'no' }, 400)],
    ['the answer is not a success', 'malformed', json({ status: 'error', data: null })],
    [
      'a rate reads the wrong way round (its amounts disagree)',
      'malformed',
      (request: http.IncomingMessage, response: http.ServerResponse) => {
        const url = new URL(request.url!, 'http://fake');
        const currency = url.searchParams.get('source_currency')!;
        json({
          status: 'success',
          data: {
            rate: 1 / quotes[currency]!,
            source: { currency, amount: quotes[currency] },
            destination: { currency: 'USD', amount: 1 },
          },
        })(request, response);
      },
    ],
    ['a rate is zero', 'malformed', transferRates((currency) => (currency === 'NGN' ? 0 : 1))],
  ] as [string, string, Handler][])(
    'when %s, nothing is published (%s)',
    async (_case, reason, handler) => {
      const before = {
        history: (await stack.history()).length,
        outbox: (await stack.outbox()).length,
        failures: await stack.failures(reason),
      };
      source.answer(handler);
      const job = await stack.refresh();
      expect(await job.isFailed()).toBe(true);
      expect(await stack.failures(reason)).toBe(before.failures + stack.config.FX_JOB_ATTEMPTS);
      expect(await stack.history()).toHaveLength(before.history);
      expect(await stack.outbox()).toHaveLength(before.outbox);
    },
  );
});

describe('with FX_SOURCE=seed (the default)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({});
  });
  afterAll(() => stack?.close());

  it('publishes the seed and schedules no refresh', async () => {
    expect((await stack.history()).map((set) => set.source)).toEqual(['seed']);
    expect(await stack.queue.getJobScheduler('fx-refresh')).toBeUndefined();
    await waitFor(async () => (await stack.exchangeRates()).asOf === SEED_AS_OF.toISOString());
  });
});

import type { DomainEvent } from '@lockdrop/contracts';
import { createPool, withTransaction, type Pool } from '@lockdrop/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '@lockdrop/testing';
import {
  busHeaders,
  changeWithEvents,
  connectBus,
  enqueueEvent,
  eventSubject,
  startOutboxRelay,
  streamNames,
  type Bus,
  type EventPublisher,
} from '../src/index.js';
import {
  createHarness,
  makePurchasePaid,
  storedCopies,
  storedMessages,
  waitUntil,
  type Harness,
} from './support.js';

describe('transactional outbox', () => {
  let harness: Harness;
  let stream: string;

  beforeAll(async () => {
    harness = await createHarness([
      {
        id: '0001_test_effects',
        sql: 'CREATE TABLE effects (event_id uuid NOT NULL)',
      },
      { id: '0002_test_changes', sql: 'CREATE TABLE changes (event_id uuid NOT NULL)' },
    ]);
    stream = streamNames(harness.namespace).events;
  });
  afterAll(() => harness.teardown());

  const publishedAt = async (eventId: string): Promise<Date | null | undefined> => {
    const { rows } = await harness.pool.query<{ published_at: Date | null }>(
      'SELECT published_at FROM outbox WHERE id = $1',
      [eventId],
    );
    return rows[0]?.published_at;
  };

  it('publishes an event committed while no relay ran, once a relay starts', async () => {
    const event = makePurchasePaid();
    await withTransaction(harness.pool, (tx) => enqueueEvent(tx, event));
    expect(await storedCopies(harness, stream, event.id)).toBe(0);

    // A poll far longer than the test: only the relay's start-up pass can publish the event.
    const relay = startOutboxRelay({
      pool: harness.pool,
      bus: harness.bus,
      pollIntervalMs: 60_000,
    });
    try {
      await waitUntil(
        () => storedCopies(harness, stream, event.id),
        (copies) => copies === 1,
      );
      await waitUntil(
        () => publishedAt(event.id),
        (at) => at instanceof Date,
      );
    } finally {
      await relay.stop();
    }
    const stored = (await storedMessages(harness.js, harness.jsm, stream)).find(
      (msg) => msg.json<{ id: string }>().id === event.id,
    );
    expect(stored?.subject).toBe(eventSubject(harness.namespace, 'purchase.paid'));
    expect(stored?.headers?.get(busHeaders.correlationId)).toBe(event.correlationId);
    expect(stored?.json()).toEqual(event);
  });

  /**
   * Runs `enqueue` while a relay that polls only once a minute is running, then waits up to 5 s
   * for each of `events` to be published once: only the commit's NOTIFY can have woken it.
   */
  const publishedOnNotify = async (events: DomainEvent[], enqueue: () => Promise<void>) => {
    const relay = startOutboxRelay({
      pool: harness.pool,
      bus: harness.bus,
      pollIntervalMs: 60_000,
    });
    try {
      // Let the start-up pass and the listener settle, so only a NOTIFY can trigger the next pass.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await enqueue();
      for (const event of events)
        await waitUntil(
          () => storedCopies(harness, stream, event.id),
          (copies) => copies === 1,
          5_000,
        );
    } finally {
      await relay.stop();
    }
  };

  it('is woken by the commit itself rather than the poll', async () => {
    const event = makePurchasePaid();
    await publishedOnNotify([event], () =>
      withTransaction(harness.pool, (tx) => enqueueEvent(tx, event)),
    );
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const event = makePurchasePaid();
    await expect(
      withTransaction(harness.pool, async (tx) => {
        await enqueueEvent(tx, event);
        throw new Error('purchase could not be recorded');
      }),
    ).rejects.toThrow('purchase could not be recorded');

    const relay = startOutboxRelay({
      pool: harness.pool,
      bus: harness.bus,
      pollIntervalMs: 60_000,
    });
    try {
      await relay.relayOnce();
    } finally {
      await relay.stop();
    }
    expect(await publishedAt(event.id)).toBeUndefined();
    expect(await storedCopies(harness, stream, event.id)).toBe(0);
  });

  it('writes a change and its events in one statement, and the commit wakes the relay', async () => {
    const events = [makePurchasePaid(), makePurchasePaid()];
    await publishedOnNotify(events, () =>
      changeWithEvents(
        harness.pool,
        { text: 'INSERT INTO changes (event_id) VALUES ($1)', values: [events[0]!.id] },
        events,
      ),
    );
    const { rows } = await harness.pool.query('SELECT 1 FROM changes WHERE event_id = $1', [
      events[0]!.id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('records no event when the change it goes with fails', async () => {
    const event = makePurchasePaid();
    await expect(
      changeWithEvents(
        harness.pool,
        { text: 'INSERT INTO changes (event_id) VALUES ($1)', values: [null] },
        [event],
      ),
    ).rejects.toThrow(/null value/);
    expect(await publishedAt(event.id)).toBeUndefined();
  });

  it('keeps an event whose publish failed and publishes it on a later pass', async () => {
    const event = makePurchasePaid();
    await withTransaction(harness.pool, (tx) => enqueueEvent(tx, event));
    const unreachable: EventPublisher = {
      publish: () => Promise.reject(new Error('nats unreachable')),
    };

    const failing = startOutboxRelay({
      pool: harness.pool,
      bus: unreachable,
      pollIntervalMs: 60_000,
    });
    let row: { attempts: number; published_at: Date | null } | undefined;
    try {
      row = await waitUntil(
        async () =>
          (
            await harness.pool.query<{ attempts: number; published_at: Date | null }>(
              'SELECT attempts, published_at FROM outbox WHERE id = $1',
              [event.id],
            )
          ).rows[0],
        (found) => (found?.attempts ?? 0) >= 1,
      );
    } finally {
      await failing.stop();
    }
    expect(row?.published_at).toBeNull();

    const relay = startOutboxRelay({
      pool: harness.pool,
      bus: harness.bus,
      pollIntervalMs: 60_000,
    });
    try {
      await waitUntil(
        () => storedCopies(harness, stream, event.id),
        (copies) => copies === 1,
      );
    } finally {
      await relay.stop();
    }
  });

  it('does not duplicate an event re-published after a relay died before marking it sent', async () => {
    const event = makePurchasePaid();
    await withTransaction(harness.pool, (tx) => enqueueEvent(tx, event));
    // The dead relay's publish reached JetStream; its UPDATE never committed.
    await harness.bus.publish(event);

    const relay = startOutboxRelay({
      pool: harness.pool,
      bus: harness.bus,
      pollIntervalMs: 60_000,
    });
    try {
      await waitUntil(
        () => publishedAt(event.id),
        (at) => at instanceof Date,
      );
    } finally {
      await relay.stop();
    }
    expect(await storedCopies(harness, stream, event.id)).toBe(1);
  });

  it('with two relays on one schema, publishes every event exactly once', async () => {
    const events = Array.from({ length: 250 }, () => makePurchasePaid());
    for (let start = 0; start < events.length; start += 50) {
      await withTransaction(harness.pool, async (tx) => {
        for (const event of events.slice(start, start + 50)) await enqueueEvent(tx, event);
      });
    }

    // A replica has its own pool and its own bus connection.
    const replicaPool: Pool = createPool({
      connectionString: harness.db.url,
      schema: harness.schema,
    });
    const replicaBus: Bus = await connectBus({
      url: testEnv.natsUrl,
      namespace: harness.namespace,
      name: 'replica',
    });
    const publishCalls = new Map<string, number>();
    const counting = (bus: Bus): EventPublisher => ({
      async publish(event) {
        publishCalls.set(event.id, (publishCalls.get(event.id) ?? 0) + 1);
        await bus.publish(event);
      },
    });
    const relays = [
      startOutboxRelay({ pool: harness.pool, bus: counting(harness.bus), pollIntervalMs: 20 }),
      startOutboxRelay({ pool: replicaPool, bus: counting(replicaBus), pollIntervalMs: 20 }),
    ];
    try {
      // Both relays' loops plus explicit passes from each, all racing for the same rows.
      await Promise.all(relays.flatMap((relay) => [relay.relayOnce(), relay.relayOnce()]));
      await waitUntil(
        async () =>
          (await harness.pool.query('SELECT 1 FROM outbox WHERE published_at IS NULL')).rowCount,
        (unpublished) => unpublished === 0,
      );
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
      await replicaBus.close();
      await replicaPool.end();
    }

    // SKIP LOCKED: no row was handed to both relays, so no reliance on JetStream's de-duplication.
    expect(events.map((event) => publishCalls.get(event.id))).toEqual(events.map(() => 1));
    const stored = await storedMessages(harness.js, harness.jsm, stream);
    const ids = new Set(events.map((event) => event.id));
    const copies = stored.filter((msg) => ids.has(msg.json<{ id: string }>().id));
    expect(copies).toHaveLength(events.length);
    expect(new Set(copies.map((msg) => msg.json<{ id: string }>().id)).size).toBe(events.length);
  });

  it('has one effect per event when a relay is killed after publishing a batch but before marking it sent', async () => {
    const events = Array.from({ length: 40 }, () => makePurchasePaid());
    await withTransaction(harness.pool, async (tx) => {
      for (const event of events) await enqueueEvent(tx, event);
    });
    const ours = new Set(events.map((event) => event.id));
    const consumer = await harness.bus.subscribe({
      consumer: 'test.relay_killed',
      filter: 'purchase.paid',
      pool: harness.pool,
      batchHandler: async (batch, tx) => {
        const mine = batch.filter((event) => ours.has(event.id));
        await tx.query('INSERT INTO effects (event_id) SELECT unnest($1::uuid[])', [
          mine.map((event) => event.id),
        ]);
      },
    });
    let published = 0;
    let killed = false;
    // Once the whole batch reached JetStream, the relay's connection dies: its UPDATE never runs.
    const dyingAfterPublish: EventPublisher = {
      async publish(event) {
        await harness.bus.publish(event);
        published += 1;
        if (!killed && published === events.length) {
          killed = true;
          await harness.pool.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND state = 'idle in transaction'
               AND query LIKE '%FOR UPDATE SKIP LOCKED%'`,
          );
        }
      },
    };
    const relay = startOutboxRelay({
      pool: harness.pool,
      bus: dyingAfterPublish,
      pollIntervalMs: 20,
    });
    try {
      await waitUntil(
        async () =>
          (
            await harness.pool.query(
              'SELECT 1 FROM outbox WHERE id = ANY($1) AND published_at IS NULL',
              [[...ours]],
            )
          ).rowCount,
        (unpublished) => unpublished === 0,
      );
      await waitUntil(
        async () => (await harness.pool.query('SELECT 1 FROM effects')).rowCount,
        (effects) => effects === events.length,
      );
    } finally {
      await relay.stop();
    }
    expect(killed).toBe(true);
    // Every event went out twice: the killed pass, then the pass that marked it.
    expect(published).toBe(2 * events.length);
    const stored = await storedMessages(harness.js, harness.jsm, stream);
    expect(stored.filter((msg) => ours.has(msg.json<{ id: string }>().id))).toHaveLength(
      events.length,
    );
    // The consumer is past every stored message, and applied each event once.
    await waitUntil(
      () => harness.jsm.consumers.info(stream, 'test_relay_killed'),
      (info) => info.num_pending === 0 && info.num_ack_pending === 0,
    );
    await consumer.stop();
    const { rows } = await harness.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS d FROM effects',
    );
    expect(rows[0]).toEqual({ n: events.length, d: events.length });
  });
});

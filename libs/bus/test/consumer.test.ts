import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@lockdrop/contracts';
import type { PoolClient } from '@lockdrop/db';
import { headers } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  busHeaders,
  deadLetterSubject,
  eventSubject,
  PoisonEventError,
  streamNames,
} from '../src/index.js';
import {
  createHarness,
  makeProductEvent,
  makePurchasePaid,
  storedMessages,
  waitUntil,
  type Harness,
} from './support.js';

// A side table the handlers write to; no unique constraint, so a repeated effect would show.
const effectsMigration = {
  id: '0001_test_effects',
  sql: `CREATE TABLE effects (consumer text NOT NULL, event_id uuid NOT NULL, type text NOT NULL);
    CREATE TABLE effect_transactions (
      id bigserial PRIMARY KEY, consumer text NOT NULL, event_id uuid NOT NULL, tx bigint NOT NULL
    )`,
};

describe('idempotent consumer', () => {
  let harness: Harness;
  let streams: { events: string; deadLetters: string };

  beforeAll(async () => {
    harness = await createHarness([effectsMigration]);
    streams = streamNames(harness.namespace);
  });
  afterAll(() => harness.teardown());

  const effectsOf = async (consumer: string, eventId: string): Promise<number> => {
    const { rowCount } = await harness.pool.query(
      'SELECT 1 FROM effects WHERE consumer = $1 AND event_id = $2',
      [consumer, eventId],
    );
    return rowCount ?? 0;
  };

  /** What each test handler does: one `effects` row per event it applies. */
  const insertEffects = (consumer: string, events: DomainEvent[], tx: PoolClient) =>
    tx.query(
      `INSERT INTO effects (consumer, event_id, type)
       SELECT $1, unnest($2::uuid[]), unnest($3::text[])`,
      [consumer, events.map((event) => event.id), events.map((event) => event.type)],
    );

  /** Publishes like a second relay would after the duplicate window: same event, new Nats-Msg-Id. */
  const publishCopy = async (event: DomainEvent): Promise<number> => {
    const hdrs = headers();
    hdrs.set(busHeaders.correlationId, event.correlationId);
    const ack = await harness.js.publish(
      eventSubject(harness.namespace, event.type),
      JSON.stringify(event),
      {
        msgID: randomUUID(),
        headers: hdrs,
      },
    );
    return ack.seq;
  };

  /** Resolves once the durable consumer has settled (acked or termed) everything up to `seq`. */
  const settledThrough = (durable: string, seq: number) =>
    waitUntil(
      () => harness.jsm.consumers.info(streams.events, durable),
      (info) => info.ack_floor.stream_seq >= seq,
    );

  const deadLetters = (consumer: string) =>
    storedMessages(
      harness.js,
      harness.jsm,
      streams.deadLetters,
      deadLetterSubject(harness.namespace, consumer),
    );

  it('has exactly one effect when the same event is delivered twice', async () => {
    const consumer = 'test.entitlements';
    const subscription = await harness.bus.subscribe({
      consumer,
      filter: 'purchase.paid',
      pool: harness.pool,
      handler: async (event, tx) => {
        await insertEffects(consumer, [event], tx);
      },
    });
    try {
      const event = makePurchasePaid();
      await publishCopy(event);
      const lastSeq = await publishCopy(event);
      await settledThrough('test_entitlements', lastSeq);
      expect(await effectsOf(consumer, event.id)).toBe(1);
    } finally {
      await subscription.stop();
    }
  });

  it('rolls back a failed attempt and keeps only the retry’s effect', async () => {
    const consumer = 'test.flaky';
    const attempts = new Map<string, number>();
    const subscription = await harness.bus.subscribe({
      consumer,
      filter: 'purchase.paid',
      pool: harness.pool,
      backoffMs: [50],
      handler: async (event, tx) => {
        await insertEffects(consumer, [event], tx);
        const attempt = (attempts.get(event.id) ?? 0) + 1;
        attempts.set(event.id, attempt);
        if (attempt === 1) throw new Error('ledger briefly unavailable');
      },
    });
    try {
      const event = makePurchasePaid();
      const seq = await publishCopy(event);
      await settledThrough('test_flaky', seq);
      expect(attempts.get(event.id)).toBe(2);
      expect(await effectsOf(consumer, event.id)).toBe(1);
    } finally {
      await subscription.stop();
    }
  });

  it('dead-letters an event whose handler keeps failing, after maxDeliver attempts, with the reason', async () => {
    const consumer = 'test.always_fails';
    const event = makePurchasePaid();
    let calls = 0;
    const subscription = await harness.bus.subscribe({
      consumer,
      filter: 'purchase.paid',
      pool: harness.pool,
      maxDeliver: 3,
      backoffMs: [50, 50],
      handler: async (delivered) => {
        // The consumer also replays earlier tests' events; count only this test's.
        if (delivered.id === event.id) calls += 1;
        throw new Error('seller account is frozen');
      },
    });
    try {
      await harness.bus.publish(event);
      const [dead] = await waitUntil(
        async () =>
          (await deadLetters(consumer)).filter((msg) => msg.json<{ id: string }>().id === event.id),
        (found) => found.length > 0,
      );
      expect(dead!.headers?.get(busHeaders.deadLetterReason)).toBe('seller account is frozen');
      expect(dead!.headers?.get(busHeaders.deadLetterDeliveries)).toBe('3');
      expect(dead!.headers?.get(busHeaders.deadLetterSubject)).toBe(
        eventSubject(harness.namespace, 'purchase.paid'),
      );
      expect(dead!.headers?.get(busHeaders.correlationId)).toBe(event.correlationId);
      expect(dead!.json()).toEqual(event);
      expect(await effectsOf(consumer, event.id)).toBe(0);
    } finally {
      await subscription.stop();
    }
    // Terminated, not left to redeliver: the failing handler ran exactly maxDeliver times in all.
    expect(calls).toBe(3);
  });

  it('dead-letters a malformed message at once, without calling the handler', async () => {
    const consumer = 'test.downloads';
    let calls = 0;
    const subscription = await harness.bus.subscribe({
      consumer,
      filter: 'download.completed',
      pool: harness.pool,
      handler: async () => {
        calls += 1;
      },
    });
    try {
      const subject = eventSubject(harness.namespace, 'download.completed');
      await harness.js.publish(subject, 'this is not json {', { msgID: randomUUID() });
      await harness.js.publish(
        subject,
        JSON.stringify({ id: randomUUID(), type: 'download.completed', data: {} }),
        {
          msgID: randomUUID(),
        },
      );
      const dead = await waitUntil(
        () => deadLetters(consumer),
        (found) => found.length === 2,
      );
      for (const msg of dead) {
        expect(msg.headers?.get(busHeaders.deadLetterReason)).toMatch(/^invalid event: /);
        expect(msg.headers?.get(busHeaders.deadLetterDeliveries)).toBe('1');
      }
      expect(dead[0]!.string()).toBe('this is not json {');
      expect(calls).toBe(0);
    } finally {
      await subscription.stop();
    }
  });

  it('maps a prefix filter to every event type under it', async () => {
    const consumer = 'test.catalog_mirror';
    const subscription = await harness.bus.subscribe({
      consumer,
      filter: 'product.*',
      pool: harness.pool,
      handler: async (event, tx) => {
        await insertEffects(consumer, [event], tx);
      },
    });
    try {
      const created = makeProductEvent('product.created');
      const updated = makeProductEvent('product.updated');
      await harness.bus.publish(created);
      await harness.bus.publish(updated);
      await harness.bus.publish(makePurchasePaid());
      await waitUntil(
        async () =>
          (
            await harness.pool.query<{ type: string }>(
              'SELECT type FROM effects WHERE consumer = $1 ORDER BY type',
              [consumer],
            )
          ).rows,
        (rows) => rows.length >= 2,
      );
      const info = await harness.jsm.consumers.info(streams.events, 'test_catalog_mirror');
      expect(info.config.filter_subject).toBe(`${harness.namespace}.events.product.>`);
      const { rows } = await harness.pool.query<{ type: string }>(
        'SELECT type FROM effects WHERE consumer = $1 ORDER BY type',
        [consumer],
      );
      expect(rows.map((row) => row.type)).toEqual(['product.created', 'product.updated']);
    } finally {
      await subscription.stop();
    }
  });

  it('lets the message being handled finish when stopped', async () => {
    const consumer = 'test.slow';
    const event = makePurchasePaid();
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    const subscription = await harness.bus.subscribe({
      consumer,
      filter: 'purchase.paid',
      pool: harness.pool,
      handler: async (delivered, tx) => {
        if (delivered.id !== event.id) return;
        entered();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await insertEffects(consumer, [event], tx);
      },
    });
    const seq = await publishCopy(event);
    await handlerEntered;
    await subscription.stop();
    expect(await effectsOf(consumer, event.id)).toBe(1);
    await settledThrough('test_slow', seq);
  });

  // A stopped subscription's last pull request stays open on the server until it expires; an
  // event published then went to the gone subscriber and waited out ack_wait (30 s), which is how
  // a restarting replica held one event back. The race is lost about one stop in seven.
  it('leaves no pull behind when stopped: an event published just after goes to the next subscriber at once', async () => {
    const consumer = 'test.restarted';
    const subscribe = () =>
      harness.bus.subscribe({
        consumer,
        filter: 'purchase.paid',
        pool: harness.pool,
        handler: async (event, tx) => {
          await insertEffects(consumer, [event], tx);
        },
      });
    let subscription = await subscribe();
    await settledThrough('test_restarted', await publishCopy(makePurchasePaid()));
    try {
      for (let restart = 0; restart < 25; restart++) {
        await subscription.stop();
        const event = makePurchasePaid();
        const seq = await publishCopy(event);
        subscription = await subscribe();
        await waitUntil(
          () => harness.jsm.consumers.info(streams.events, 'test_restarted'),
          (info) => info.ack_floor.stream_seq >= seq,
          5_000,
        );
        expect(await effectsOf(consumer, event.id)).toBe(1);
      }
    } finally {
      await subscription.stop();
    }
  });

  describe('a backlog', () => {
    const recordTransaction = (consumer: string) => async (event: DomainEvent, tx: PoolClient) => {
      await tx.query(
        'INSERT INTO effect_transactions (consumer, event_id, tx) VALUES ($1, $2, txid_current())',
        [consumer, event.id],
      );
    };
    const transactionsOf = async (consumer: string, ids: string[]) =>
      (
        await harness.pool.query<{ event_id: string; tx: string }>(
          'SELECT event_id, tx FROM effect_transactions WHERE consumer = $1 AND event_id = ANY($2) ORDER BY id',
          [consumer, ids],
        )
      ).rows;

    it('commits what queued up in few transactions, each event once and in order', async () => {
      const consumer = 'test.backlog';
      const events = Array.from({ length: 40 }, () => makePurchasePaid());
      let lastSeq = 0;
      for (const event of events) lastSeq = await publishCopy(event);
      lastSeq = await publishCopy(events[5]!); // a redelivery-like copy inside the backlog
      const subscription = await harness.bus.subscribe({
        consumer,
        filter: 'purchase.paid',
        pool: harness.pool,
        handler: recordTransaction(consumer),
      });
      try {
        await settledThrough('test_backlog', lastSeq);
        const rows = await transactionsOf(
          consumer,
          events.map((event) => event.id),
        );
        expect(rows.map((row) => row.event_id)).toEqual(events.map((event) => event.id));
        expect(new Set(rows.map((row) => row.tx)).size).toBeLessThan(events.length / 2);
      } finally {
        await subscription.stop();
      }
    });

    it('keeps the rest of a batch when one event in it fails, and deals with that one alone', async () => {
      const consumer = 'test.backlog_with_poison';
      const events = Array.from({ length: 12 }, () => makePurchasePaid());
      const poisoned = events[4]!;
      let lastSeq = 0;
      for (const event of events) lastSeq = await publishCopy(event);
      const record = recordTransaction(consumer);
      const subscription = await harness.bus.subscribe({
        consumer,
        filter: 'purchase.paid',
        pool: harness.pool,
        handler: async (event, tx) => {
          await record(event, tx);
          if (event.id === poisoned.id) throw new PoisonEventError('refund of an unknown sale');
        },
      });
      try {
        await settledThrough('test_backlog_with_poison', lastSeq);
        const rows = await transactionsOf(
          consumer,
          events.map((event) => event.id),
        );
        expect(rows.map((row) => row.event_id)).toEqual(
          events.filter((event) => event !== poisoned).map((event) => event.id),
        );
        const dead = await deadLetters(consumer);
        expect(dead.map((msg) => msg.json<{ id: string }>().id)).toEqual([poisoned.id]);
        expect(dead[0]!.headers?.get(busHeaders.deadLetterReason)).toBe(
          'refund of an unknown sale',
        );
      } finally {
        await subscription.stop();
      }
    });
  });

  describe('a batch handler', () => {
    /** Effects per event among `events` (every earlier test's events are on the stream too). */
    const effectCounts = async (consumer: string, events: DomainEvent[]) =>
      (
        await harness.pool.query<{ event_id: string; count: number }>(
          `SELECT event_id, count(*)::int AS count FROM effects
           WHERE consumer = $1 AND event_id = ANY($2) GROUP BY event_id`,
          [consumer, events.map((event) => event.id)],
        )
      ).rows;

    it('gets a backlog in few calls, each event once, with duplicates and redeliveries in it', async () => {
      const consumer = 'test.batch_dupes';
      const calls: string[][] = [];
      const subscribe = () =>
        harness.bus.subscribe({
          consumer,
          filter: 'purchase.paid',
          pool: harness.pool,
          batchHandler: async (events, tx) => {
            calls.push(events.map((event) => event.id));
            await insertEffects(consumer, events, tx);
          },
        });
      const applied = makePurchasePaid();
      let subscription = await subscribe();
      await settledThrough('test_batch_dupes', await publishCopy(applied));
      await subscription.stop();

      const events = Array.from({ length: 40 }, () => makePurchasePaid());
      let lastSeq = 0;
      for (const [index, event] of events.entries()) {
        lastSeq = await publishCopy(event);
        if (index % 10 === 3) lastSeq = await publishCopy(event); // a duplicate next to itself
        if (index % 10 === 7) lastSeq = await publishCopy(applied); // a redelivery of an applied one
      }
      subscription = await subscribe();
      try {
        await settledThrough('test_batch_dupes', lastSeq);
        const counts = await effectCounts(consumer, [applied, ...events]);
        expect(counts).toHaveLength(events.length + 1);
        expect(counts.every((row) => row.count === 1)).toBe(true);
        const ours = new Set(events.map((event) => event.id));
        const batchCalls = calls
          .slice(1)
          .map((ids) => ids.filter((id) => ours.has(id)))
          .filter((ids) => ids.length > 0);
        expect(batchCalls.flat()).toEqual(events.map((event) => event.id));
        expect(batchCalls.length).toBeLessThan(events.length / 2);
      } finally {
        await subscription.stop();
      }
    });

    it('dead-letters the one bad event of a batch and applies the rest', async () => {
      const consumer = 'test.batch_poison';
      const events = Array.from({ length: 12 }, () => makePurchasePaid());
      const poisoned = events[4]!;
      let lastSeq = 0;
      for (const event of events) lastSeq = await publishCopy(event);
      const subscription = await harness.bus.subscribe({
        consumer,
        filter: 'purchase.paid',
        pool: harness.pool,
        batchHandler: async (batch, tx) => {
          await insertEffects(consumer, batch, tx);
          if (batch.some((event) => event.id === poisoned.id))
            throw new PoisonEventError('purchase of an unknown product');
        },
      });
      try {
        await settledThrough('test_batch_poison', lastSeq);
        const counts = await effectCounts(consumer, events);
        expect(counts.map((row) => row.event_id).sort()).toEqual(
          events
            .filter((event) => event !== poisoned)
            .map((event) => event.id)
            .sort(),
        );
        expect(counts.every((row) => row.count === 1)).toBe(true);
        const dead = await deadLetters(consumer);
        expect(dead.map((msg) => msg.json<{ id: string }>().id)).toEqual([poisoned.id]);
      } finally {
        await subscription.stop();
      }
    });

    it('redelivers a batch whose database connection was killed before commit, and applies it once', async () => {
      const consumer = 'test.batch_killed';
      const events = Array.from({ length: 20 }, () => makePurchasePaid());
      let lastSeq = 0;
      for (const event of events) lastSeq = await publishCopy(event);
      const ours = new Set(events.map((event) => event.id));
      let kills = 0;
      const subscription = await harness.bus.subscribe({
        consumer,
        filter: 'purchase.paid',
        pool: harness.pool,
        backoffMs: [50],
        batchHandler: async (batch, tx) => {
          await insertEffects(consumer, batch, tx);
          // The batch and then the first event retried alone lose their connection mid-transaction.
          if (kills < 2 && batch.some((event) => ours.has(event.id))) {
            kills += 1;
            const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            await harness.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
          }
          await tx.query('SELECT 1');
        },
      });
      try {
        await settledThrough('test_batch_killed', lastSeq);
        expect(kills).toBe(2);
        const counts = await effectCounts(consumer, events);
        expect(counts).toHaveLength(events.length);
        expect(counts.every((row) => row.count === 1)).toBe(true);
        expect(await deadLetters(consumer)).toHaveLength(0);
      } finally {
        await subscription.stop();
      }
    });
  });
});

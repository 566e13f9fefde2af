import { connectBus, openDeadLetters, PoisonEventError, type Bus } from '../src/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '@lockdrop/testing';
import { createHarness, makePurchasePaid, waitUntil, type Harness } from './support.js';

const effectsMigration = {
  id: '0001_test_effects',
  sql: 'CREATE TABLE effects (consumer text NOT NULL, event_id uuid NOT NULL)',
};

/** What node-postgres throws while the database is down (SQLSTATE 57P01, admin shutdown). */
const databaseDown = () =>
  Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  });

describe('dead letters', () => {
  let harness: Harness;
  let bus: Bus;
  const deadLettered: string[] = [];

  beforeAll(async () => {
    harness = await createHarness([effectsMigration]);
    // A bus like a service's, reporting every dead letter (the service counts them on /metrics).
    bus = await connectBus({
      url: testEnv.natsUrl,
      namespace: harness.namespace,
      name: 'dead-letters-test',
      onDeadLetter: (consumer) => deadLettered.push(consumer),
    });
  });
  afterAll(async () => {
    await bus.close();
    await harness.teardown();
  });

  const effects = async (consumer: string, eventId: string) =>
    (
      await harness.pool.query('SELECT 1 FROM effects WHERE consumer = $1 AND event_id = $2', [
        consumer,
        eventId,
      ])
    ).rowCount;

  it('keeps retrying through a database outage far past maxDeliver, and never dead-letters it', async () => {
    const consumer = 'test.outage';
    const event = makePurchasePaid();
    let attempts = 0;
    const subscription = await bus.subscribe({
      consumer,
      filter: 'purchase.paid',
      pool: harness.pool,
      maxDeliver: 2,
      backoffMs: [20],
      handler: async (delivered, tx) => {
        if (delivered.id !== event.id) return;
        attempts += 1;
        // Down for eight deliveries: four times the bound an unknown failure gets.
        if (attempts <= 8) throw databaseDown();
        await tx.query('INSERT INTO effects (consumer, event_id) VALUES ($1, $2)', [
          consumer,
          delivered.id,
        ]);
      },
    });
    try {
      await bus.publish(event);
      await waitUntil(
        () => effects(consumer, event.id),
        (count) => count === 1,
        15_000,
      );
      expect(attempts).toBe(9);
      expect(deadLettered).not.toContain(consumer);
      const letters = await openDeadLetters({ url: testEnv.natsUrl, namespace: harness.namespace });
      try {
        expect(await letters.list(consumer)).toEqual([]);
      } finally {
        await letters.close();
      }
    } finally {
      await subscription.stop();
    }
  });

  it('dead-letters poison at once, counts it, and replays it exactly once when fixed', async () => {
    const consumer = 'test.poison';
    const event = makePurchasePaid();
    let fixed = false;
    let calls = 0;
    const subscription = await bus.subscribe({
      consumer,
      filter: 'purchase.paid',
      pool: harness.pool,
      maxDeliver: 5,
      backoffMs: [20],
      handler: async (delivered, tx) => {
        if (delivered.id !== event.id) return;
        calls += 1;
        if (!fixed) throw new PoisonEventError('product belongs to no known seller');
        await tx.query('INSERT INTO effects (consumer, event_id) VALUES ($1, $2)', [
          consumer,
          delivered.id,
        ]);
      },
    });
    const letters = await openDeadLetters({ url: testEnv.natsUrl, namespace: harness.namespace });
    try {
      await bus.publish(event);
      const [letter] = await waitUntil(
        () => letters.list(consumer),
        (found) => found.length === 1,
      );
      expect(calls).toBe(1);
      expect(deadLettered).toContain(consumer);
      expect(letter).toMatchObject({
        consumer,
        eventId: event.id,
        eventType: 'purchase.paid',
        reason: 'product belongs to no known seller',
        deliveries: 1,
      });

      fixed = true;
      expect((await letters.replay(consumer)).map((replayed) => replayed.eventId)).toEqual([
        event.id,
      ]);
      await waitUntil(
        () => effects(consumer, event.id),
        (count) => count === 1,
      );
      expect(await letters.list(consumer)).toEqual([]);
      // A second replay finds nothing, and the effect stays single.
      expect(await letters.replay(consumer)).toEqual([]);
      expect(await effects(consumer, event.id)).toBe(1);
    } finally {
      await letters.close();
      await subscription.stop();
    }
  });
});

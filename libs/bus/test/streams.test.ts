import { deleteStreams, testEnv, testNamespace } from '@lockdrop/testing';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectBus,
  ensureStreams,
  EVENT_STREAM_MAX_AGE_DAYS,
  PROCESSED_EVENT_RETENTION_DAYS,
  serverList,
  streamNames,
  streamReplicasFromEnv,
} from '../src/index.js';

describe('streams and connection', () => {
  const namespace = testNamespace();
  const names = streamNames(namespace);
  let connections: NatsConnection[];
  let managers: JetStreamManager[];

  beforeAll(async () => {
    connections = await Promise.all([1, 2].map(() => connect({ servers: testEnv.natsUrl })));
    managers = await Promise.all(connections.map((nc) => jetstreamManager(nc)));
  });
  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
    await deleteStreams(testEnv.natsUrl, namespace);
  });

  it('creates both streams when two processes ensure them at once', async () => {
    await Promise.all(managers.map((jsm) => ensureStreams(jsm, namespace)));

    const events = await managers[0]!.streams.info(names.events);
    expect(events.config.subjects).toEqual([`${namespace}.events.>`]);
    // One server unless BUS_STREAM_REPLICAS says otherwise (the chaos suite's cluster runs 3).
    expect(events.config.num_replicas).toBe(1);
    expect(events.config.duplicate_window).toBe(nanos(2 * 60_000));
    // Shorter than consumers remember applied events, so pruning can never let one apply twice.
    expect(events.config.max_age).toBe(nanos(EVENT_STREAM_MAX_AGE_DAYS * 24 * 3_600_000));
    expect(EVENT_STREAM_MAX_AGE_DAYS).toBeLessThan(PROCESSED_EVENT_RETENTION_DAYS);
    const deadLetters = await managers[0]!.streams.info(names.deadLetters);
    expect(deadLetters.config.subjects).toEqual([`${namespace}.dlq.>`]);
    // Dead letters wait for an operator however long it takes.
    expect(deadLetters.config.max_age).toBe(0);
  });

  it('brings a stream with an outdated configuration up to date', async () => {
    await managers[0]!.streams.update(names.events, { duplicate_window: nanos(10_000) });

    await ensureStreams(managers[1]!, namespace);

    const events = await managers[0]!.streams.info(names.events);
    expect(events.config.duplicate_window).toBe(nanos(2 * 60_000));
  });

  it('answers a ping while connected and refuses one after close', async () => {
    const bus = await connectBus({ url: testEnv.natsUrl, namespace, name: 'ping-test' });
    await expect(bus.ping()).resolves.toBeUndefined();
    await bus.close();
    await expect(bus.ping()).rejects.toThrow();
  });

  it('refuses a namespace that cannot name a stream', async () => {
    await expect(
      connectBus({ url: testEnv.natsUrl, namespace: 'Lock.Drop', name: 'bad' }),
    ).rejects.toThrow('invalid bus namespace');
  });

  it('reads the replica count and the server list as operators write them', () => {
    expect(streamReplicasFromEnv({})).toBe(1);
    expect(streamReplicasFromEnv({ BUS_STREAM_REPLICAS: '3' })).toBe(3);
    expect(() => streamReplicasFromEnv({ BUS_STREAM_REPLICAS: 'three' })).toThrow(
      'BUS_STREAM_REPLICAS',
    );
    expect(serverList('nats://a:4222, nats://b:4222,')).toEqual(['nats://a:4222', 'nats://b:4222']);
  });
});

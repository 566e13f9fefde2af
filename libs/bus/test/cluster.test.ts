import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, testNamespace, waitUntil } from '@lockdrop/testing';
import {
  AckPolicy,
  jetstreamManager,
  type ConsumerInfo,
  type JetStreamManager,
  type StreamInfo,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, ensureStreams, streamNames } from '../src/index.js';
import { makePurchasePaid } from './support.js';

/**
 * BUS_STREAM_REPLICAS on a real JetStream cluster: three nats-server processes routed on
 * loopback (the machine's nats-server, as the chaos suite runs them). One server — what the rest
 * of these tests use — cannot hold a replicated stream, so what replication promises is shown
 * here: an existing stream and its durable consumers follow a raised replica count, and a
 * publish is acknowledged only once a majority of the stream's servers stored the event.
 */
interface Node {
  name: string;
  url: string;
  start(): Promise<void>;
  /** kill -9. */
  crash(): Promise<void>;
}

async function listening(port: number): Promise<boolean> {
  const nc = await connect({ servers: `nats://127.0.0.1:${port}`, reconnect: false }).catch(
    () => null,
  );
  await nc?.close();
  return nc !== null;
}

async function startCluster(size = 3): Promise<{ nodes: Node[]; stop(): Promise<void> }> {
  const clusterName = `bus_${Math.random().toString(36).slice(2, 8)}`;
  const ports: Array<{ client: number; route: number }> = [];
  while (ports.length < size) {
    const [client, route] = [await freePort(), await freePort()];
    if (
      client === route ||
      ports.some((p) => [p.client, p.route].some((x) => [client, route].includes(x)))
    )
      continue;
    ports.push({ client, route });
  }
  const routes = ports.map(({ route }) => `nats-route://127.0.0.1:${route}`).join(',');
  const directories: string[] = [];
  const children = new Set<ChildProcess>();
  const nodes = await Promise.all(
    ports.map(async ({ client, route }, index): Promise<Node> => {
      const name = `n${index + 1}`;
      const directory = await mkdtemp(path.join(tmpdir(), `lockdrop-bus-${name}-`));
      directories.push(directory);
      let child: ChildProcess | undefined;
      return {
        name,
        url: `nats://127.0.0.1:${client}`,
        async start() {
          child = spawn(
            'nats-server',
            [
              '-js',
              '-a',
              '127.0.0.1',
              '-p',
              String(client),
              '-sd',
              directory,
              '-n',
              name,
              '--cluster_name',
              clusterName,
              '--cluster',
              `nats://127.0.0.1:${route}`,
              '--routes',
              routes,
            ],
            { stdio: 'ignore' },
          );
          children.add(child);
          child.once('exit', () => children.delete(child!));
          await waitUntil(
            () => listening(client),
            (up) => up,
            15_000,
          );
        },
        async crash() {
          if (!child || child.exitCode !== null || child.signalCode !== null) return;
          const gone = new Promise((resolve) => child!.once('exit', resolve));
          child.kill('SIGKILL');
          await gone;
        },
      };
    }),
  );
  await Promise.all(nodes.map((node) => node.start()));
  return {
    nodes,
    async stop() {
      await Promise.all([...children].map((child) => child.kill('SIGKILL')));
      await Promise.all(directories.map((d) => rm(d, { recursive: true, force: true })));
    },
  };
}

describe('a replicated event stream on a three-node NATS cluster', () => {
  const namespace = testNamespace();
  const names = streamNames(namespace);
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  let urls: string;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    cluster = await startCluster();
    urls = cluster.nodes.map((node) => node.url).join(',');
    nc = await connect({ servers: urls.split(',') });
    // Until the cluster has a meta leader, JetStream's API does not answer.
    jsm = (await waitUntil(
      () => jetstreamManager(nc).catch(() => null),
      (manager) => manager !== null,
      30_000,
    ))!;
  }, 60_000);
  afterAll(async () => {
    await nc?.close();
    await cluster?.stop();
  });

  /** The stream once it has a leader and `followers` current followers. */
  const streamWith = (followers: number): Promise<StreamInfo> =>
    waitUntil(
      () => jsm.streams.info(names.events).catch(() => null),
      (info) =>
        !!info?.cluster?.leader &&
        (info.cluster.replicas ?? []).filter((replica) => replica.current && !replica.offline)
          .length === followers,
      30_000,
    ) as Promise<StreamInfo>;

  it('raises an existing one-server stream, and the durable consumers on it, to three servers', async () => {
    await ensureStreams(jsm, namespace, { replicas: 1 });
    // As libs/bus subscribe() makes a durable: no num_replicas of its own (it takes the stream's).
    await jsm.consumers.add(names.events, {
      durable_name: 'cluster-test',
      ack_policy: AckPolicy.Explicit,
      filter_subject: `${namespace}.events.purchase.paid`,
    });
    expect((await streamWith(0)).config.num_replicas).toBe(1);

    // The next start with BUS_STREAM_REPLICAS=3 (connectBus reads it; given here directly).
    const bus = await connectBus({ url: urls, namespace, name: 'cluster-test', replicas: 3 });
    await bus.close();

    const raised = await streamWith(2);
    expect(raised.config.num_replicas).toBe(3);
    const consumer = (await waitUntil(
      () => jsm.consumers.info(names.events, 'cluster-test').catch(() => null),
      (info) => (info?.cluster?.replicas ?? []).length === 2,
      30_000,
    )) as ConsumerInfo;
    expect(consumer.config.durable_name).toBe('cluster-test');
  }, 60_000);

  it('acknowledges a publish only while a majority of the stream’s servers can store it', async () => {
    const leaderName = (await streamWith(2)).cluster!.leader!;
    const leader = cluster.nodes.find((node) => node.name === leaderName)!;
    const followers = cluster.nodes.filter((node) => node !== leader);
    // Connected to the leader alone: a publish reaches the stream whatever else is down.
    const bus = await connectBus({ url: leader.url, namespace, name: 'cluster-test', replicas: 3 });
    try {
      await expect(bus.publish(makePurchasePaid())).resolves.toBeUndefined();

      await Promise.all(followers.map((node) => node.crash()));
      // The leader alone stores nothing a majority has not: no acknowledgement comes, the
      // publish rejects, and the outbox relay keeps its row to send again.
      await expect(bus.publish(makePurchasePaid())).rejects.toThrow();

      await followers[0]!.start();
      const event = makePurchasePaid();
      await waitUntil(
        () =>
          bus.publish(event).then(
            () => true,
            () => false,
          ),
        (acknowledged) => acknowledged,
        30_000,
      );
      await followers[1]!.start();
    } finally {
      await bus.close();
    }
  }, 90_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager, type StreamInfo } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { streamNames } from '@lockdrop/bus';
import { waitUntil } from '@lockdrop/testing';
import { startCluster, type Cluster } from './support/cluster';
import { expectInvariants } from './support/invariants';
import { openCheckouts, openShop, providerCharges, webhookStorm, type Shop } from './support/shop';
import type { NatsNode } from './support/servers';

/**
 * Issue 32: the bus on a three-node JetStream cluster (three nats-server processes routed on
 * loopback, BUS_STREAM_REPLICAS=3). The node leading the event stream is killed -9 in the middle
 * of a payment storm; once it is back and caught up, the next leader is killed in the next storm.
 * Every payment the provider took still becomes exactly one purchase and one entitlement.
 */
let cluster: Cluster;
let shop: Shop;
const allTxRefs: string[] = [];

beforeAll(async () => {
  cluster = await startCluster({ BUS_STREAM_REPLICAS: '3' }, { natsNodes: 3 });
  shop = await openShop(cluster, 'nats-cluster');
});
afterAll(async () => {
  await cluster?.stop();
});

/** The event stream as the cluster reports it, asked of whichever node answers. */
async function eventStream(): Promise<StreamInfo> {
  const nc = await connect({
    servers: cluster.natsNodes.map((node) => node.url),
    ...cluster.natsAuth,
  });
  try {
    const jsm = await jetstreamManager(nc);
    return await jsm.streams.info(streamNames(cluster.namespace).events);
  } finally {
    await nc.close();
  }
}

/** The stream's info once it has a leader and `replicas` followers that are current. */
async function untilCaughtUp(followers: number): Promise<StreamInfo> {
  return waitUntil(
    () => eventStream().catch(() => null),
    (info) =>
      !!info?.cluster?.leader &&
      (info.cluster.replicas ?? []).filter((replica) => replica.current && !replica.offline)
        .length === followers,
    60_000,
  ) as Promise<StreamInfo>;
}

const nodeNamed = (name: string): NatsNode => {
  const node = cluster.natsNodes.find((candidate) => candidate.name === name);
  if (!node) throw new Error(`no NATS node named ${name}`);
  return node;
};

/** Kills the event stream's leader when the storm's first webhook is accepted; returns its name. */
async function stormKillingTheLeader(count: number) {
  const { txRefs } = await openCheckouts(cluster, shop.productId, count);
  allTxRefs.push(...txRefs);
  const bodies = await providerCharges(cluster, txRefs);
  let killed: NatsNode | undefined;
  const storm = await webhookStorm(cluster, bodies, {
    inFlight: 4,
    onFirstAccepted: async () => {
      const { cluster: raft } = await eventStream();
      killed = nodeNamed(raft!.leader!);
      await killed.crash();
    },
  });
  // Two nodes of three keep the stream going: a new leader, and publishes still acknowledged.
  const during = await untilCaughtUp(1);
  expect(during.cluster!.leader).not.toBe(killed!.name);
  return { killed: killed!, newLeader: during.cluster!.leader!, storm };
}

describe('a three-node NATS cluster losing nodes', () => {
  it('keeps every stream and consumer on three nodes', async () => {
    const info = await untilCaughtUp(2);
    expect(info.config.num_replicas).toBe(3);
    const names = [info.cluster!.leader, ...info.cluster!.replicas!.map((replica) => replica.name)];
    expect(names.sort()).toEqual(cluster.natsNodes.map((node) => node.name).sort());
    // Consumers take the stream's replica count: their acknowledged positions survive a node too.
    const nc = await connect({
      servers: cluster.natsNodes.map((node) => node.url),
      ...cluster.natsAuth,
    });
    try {
      const jsm = await jetstreamManager(nc);
      const consumers = [];
      for await (const consumer of jsm.consumers.list(streamNames(cluster.namespace).events))
        consumers.push(consumer);
      expect(consumers.length).toBeGreaterThan(3);
      for (const consumer of consumers)
        expect(consumer.cluster?.replicas ?? [], consumer.name).toHaveLength(2);
    } finally {
      await nc.close();
    }
  });

  it('the stream leader killed mid-storm, then the next leader after the first returns: each payment once', async () => {
    const pidsBefore = cluster.pids();
    const first = await stormKillingTheLeader(30);
    console.log(
      `NATS: killed the event stream's leader ${first.killed.name} mid-storm; ${first.newLeader} took over ` +
        `(${first.storm.deliveries} deliveries, ${first.storm.retried} retried)`,
    );
    await expectInvariants(cluster, {
      txRefs: allTxRefs,
      label: `losing NATS node ${first.killed.name} (the stream leader)`,
    });

    await first.killed.restart();
    await untilCaughtUp(2);

    const second = await stormKillingTheLeader(30);
    expect(second.killed.name).toBe(first.newLeader);
    console.log(
      `NATS: ${first.killed.name} back and current; killed the next leader ${second.killed.name} mid-storm; ` +
        `${second.newLeader} took over (${second.storm.deliveries} deliveries, ${second.storm.retried} retried)`,
    );
    await expectInvariants(cluster, {
      txRefs: allTxRefs,
      label: `losing NATS node ${second.killed.name} after ${first.killed.name} returned`,
    });
    await second.killed.restart();
    await untilCaughtUp(2);
    // The services rode both losses out connected: none died or was restarted.
    expect(cluster.pids()).toEqual(pidsBefore);
  });
});

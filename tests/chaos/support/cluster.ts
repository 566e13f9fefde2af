import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPool, dropDatabase, ensureDatabase, withDatabaseName } from '@lockdrop/db';
import { natsAuth, natsAuthorization, randomBusUsers, type NatsAuthOptions } from '@lockdrop/bus';
import { freePort, s3StorageEnv, startS3Server, type S3TestServer } from '@lockdrop/testing';
import { productionSecrets, startStack, type StackEntry } from '../../../tools/stack.mjs';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startFlutterwaveProvider, type FlutterwaveProvider } from './flutterwave';
import {
  startNats,
  startNatsCluster,
  startRedis,
  startRedisSentinelGroup,
  startTcpFront,
  type RedisSentinelGroup,
  type NatsNode,
  type OwnedServer,
  type TcpFront,
} from './servers';

export const SERVICES = [
  'identity',
  'catalog',
  'payments',
  'delivery',
  'analytics',
  'worker',
  'gateway',
] as const;
export type ServiceName = (typeof SERVICES)[number];
export const REPLICAS = ['a', 'b'] as const;
export type Replica = (typeof REPLICAS)[number];

/**
 * Lockdrop as a deployment runs it, on one machine: production mode, two replicas of every
 * service behind a round-robin front each (a Kubernetes Service), delivery on S3 (s3rver),
 * and NATS, Redis and a database of the suite's own — each service reaching Postgres through
 * a front of its own that the suite can cut. The launcher (tools/stack.mjs) restarts a replica that dies.
 */
export interface Cluster {
  /** The gateway's front: what buyers and sellers reach. */
  baseUrl: string;
  /** A replica's own address (to aim traffic at one replica). */
  replicaUrl(service: ServiceName, replica: Replica): string;
  env: Record<string, string>;
  /** The bus namespace of this cluster's streams and subjects. */
  namespace: string;
  /** Straight to Postgres, past the front the services use: the suite's view of the truth. */
  db: pg.Pool;
  /** The NATS the services use; with `natsNodes`, `url` lists every node and the rest acts on all. */
  nats: OwnedServer;
  /**
   * The suite's NATS login: `operator`, as `npm run dlq` logs in. The servers know only the users
   * of libs/bus/src/permissions.ts, and each service logs in as its own (issue 30).
   */
  natsAuth: NatsAuthOptions;
  /** The nodes of a NATS cluster (`startCluster(…, { natsNodes: 3 })`); one node otherwise. */
  natsNodes: NatsNode[];
  redis: OwnedServer;
  /** With `redisSentinel`: the primary (also `redis`), its replica and three Sentinels. */
  redisGroup?: RedisSentinelGroup;
  /** Cuts the network between these services (all by default) and Postgres. */
  cutDatabase(services?: readonly ServiceName[]): Promise<void>;
  restoreDatabase(): Promise<void>;
  s3: S3TestServer;
  sandboxWebhookSecret: string;
  /** With `flutterwave`: the provider payments and the worker use, in its own process. */
  flutterwave?: FlutterwaveProvider;
  /** kill -9 one replica; resolves when the launcher has it ready again (or at once, `wait: false`). */
  killReplica(service: ServiceName, replica: Replica, options?: { wait?: boolean }): Promise<void>;
  /** Waits until every replica answers /readyz. */
  allReady(timeoutMs?: number): Promise<void>;
  /** The process id of every replica (a change means it died and was restarted). */
  pids(): Record<string, number | null>;
  /** Every log line of warn level and above, formatted. */
  logs: string[];
  stop(): Promise<void>;
}

const entryName = (service: ServiceName, replica: Replica) => `${service}-${replica}`;

export interface ClusterOptions {
  /** Run a NATS cluster of this many nodes (routes on loopback) instead of one server. */
  natsNodes?: number;
  /**
   * The database's URL for a name, when the services should reach a database server of the
   * test's own directly (a multi-host URL: primary and standby) rather than the machine's
   * Postgres through fronts; `cutDatabase` is then not available.
   */
  databaseUrl?: (database: string) => string;
  /**
   * Redis as a primary, a replica and three Sentinels; the worker and the gateway find the
   * primary through the Sentinels (REDIS_SENTINELS; REDIS_URL's host, the first primary, is
   * then not used).
   */
  redisSentinel?: boolean;
  /**
   * Payments and the worker on the Flutterwave fake in its own process (support/flutterwave.ts)
   * with live keys — charges, payment plans, subscriptions, transfers, with its misbehaviour
   * switches — instead of the sandbox, so the provider's records are not a table of ours.
   */
  flutterwave?: boolean;
}

/** Acts on every node at once: the single-server operations, for a cluster. */
function wholeCluster(nodes: NatsNode[], urls: string): OwnedServer {
  const each = (act: (node: NatsNode) => Promise<void>) => async () => {
    await Promise.all(nodes.map(act));
  };
  return {
    url: urls,
    port: nodes[0]!.port,
    crash: each((node) => node.crash()),
    restart: each((node) => node.restart()),
    crashAndRestart: (downMs) =>
      Promise.all(nodes.map((n) => n.crashAndRestart(downMs))).then(() => undefined),
    stop: each((node) => node.stop()),
  };
}

/** Until the cluster's JetStream answers (a meta leader is elected): streams can be made. */
async function untilJetStreamAnswers(
  urls: string,
  auth: NatsAuthOptions,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const nc = await connect({ servers: urls.split(','), ...auth }).catch(() => null);
    try {
      if (nc) {
        await (await jetstreamManager(nc)).getAccountInfo();
        return;
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      await nc?.close();
    }
    if (Date.now() > deadline) throw new Error(`JetStream at ${urls} did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function startCluster(
  extraEnv: Record<string, string> = {},
  options: ClusterOptions = {},
): Promise<Cluster> {
  const runId = randomBytes(4).toString('hex');
  const namespace = `chaos${runId}`;
  const scratch = await mkdtemp(path.join(tmpdir(), 'lockdrop-chaos-'));
  const logFile = path.join(scratch, 'stack.log');
  // NATS as every deployment runs it: a user per service from the permissions table, each
  // process logged in as its own (startStack's busUsers), the suite as the operator.
  const busUsers = randomBusUsers();
  const natsConfig = natsAuthorization({ namespace, users: busUsers });
  const operator = busUsers.find((user) => user.role === 'operator')!;
  const suiteNatsAuth = natsAuth(operator.user, operator.password);
  const [natsNodes, redis, s3, flutterwave] = await Promise.all([
    options.natsNodes && options.natsNodes > 1
      ? startNatsCluster(options.natsNodes, natsConfig).then(({ nodes }) => nodes)
      : startNats(natsConfig).then((server) => [Object.assign(server, { name: 'n1' })]),
    options.redisSentinel ? startRedisSentinelGroup() : startRedis(),
    startS3Server(),
    options.flutterwave ? startFlutterwaveProvider() : undefined,
  ]);
  const redisGroup = 'sentinels' in redis ? redis : undefined;
  const redisPrimary = redisGroup ? redisGroup.primary : (redis as OwnedServer);
  const nats =
    natsNodes.length > 1
      ? wholeCluster(natsNodes, natsNodes.map((node) => node.url).join(','))
      : natsNodes[0]!;
  await untilJetStreamAnswers(nats.url, suiteNatsAuth);
  const machineDatabase = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop';
  const databaseName = `lockdrop_chaos_${runId}`;
  const directUrl =
    options.databaseUrl?.(databaseName) ?? withDatabaseName(machineDatabase, databaseName);
  await ensureDatabase(directUrl);
  const postgresPort = Number(new URL(machineDatabase).port || 5432);
  const databaseFronts = new Map<ServiceName, TcpFront>();
  const databaseUrls = new Map<ServiceName, string>();
  if (options.databaseUrl) for (const service of SERVICES) databaseUrls.set(service, directUrl);
  else
    for (const service of SERVICES) {
      const front = await startTcpFront([postgresPort]);
      const url = new URL(directUrl);
      url.host = `127.0.0.1:${front.port}`;
      databaseFronts.set(service, front);
      databaseUrls.set(service, url.toString());
    }

  const ports = new Map<string, number>();
  const fronts = new Map<ServiceName, TcpFront>();
  for (const service of SERVICES)
    for (const replica of REPLICAS) ports.set(entryName(service, replica), await freePort());
  for (const service of SERVICES)
    fronts.set(
      service,
      await startTcpFront(REPLICAS.map((replica) => ports.get(entryName(service, replica))!)),
    );
  const frontUrl = (service: ServiceName) => `http://127.0.0.1:${fronts.get(service)!.port}`;
  const baseUrl = frontUrl('gateway');
  const sandboxWebhookSecret = randomBytes(24).toString('base64url');

  const env: Record<string, string> = {
    ...productionSecrets(),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    NATS_URL: nats.url,
    REDIS_URL: redisPrimary.url,
    ...(redisGroup
      ? {
          REDIS_SENTINELS: redisGroup.sentinelList,
          REDIS_SENTINEL_NAME: redisGroup.masterName,
          // As in production: a payout request is handled once the replica holds its job.
          PAYOUT_JOB_REPLICAS: '1',
        }
      : {}),
    BUS_NAMESPACE: namespace,
    REDIS_KEY_PREFIX: `lockdrop-chaos-${runId}:`,
    PUBLIC_URL: baseUrl,
    JWKS_URL: `${frontUrl('identity')}/.well-known/jwks.json`,
    IDENTITY_URL: frontUrl('identity'),
    CATALOG_URL: frontUrl('catalog'),
    PAYMENTS_URL: frontUrl('payments'),
    DELIVERY_URL: frontUrl('delivery'),
    ANALYTICS_URL: frontUrl('analytics'),
    WORKER_URL: frontUrl('worker'),
    // Two delivery replicas share one store: the S3 backend, on a real S3 server.
    ...s3StorageEnv(s3),
    // Downloads as the prod overlay serves them: checked by delivery, then a presigned redirect.
    DOWNLOAD_OFFLOAD: 's3-redirect',
    ALLOW_TEST_PAYMENTS: 'true',
    SANDBOX_WEBHOOK_SECRET: sandboxWebhookSecret,
    SANDBOX_PAYOUT_DELAY_MS: '1000',
    // The scenarios age a sale past the refund window and pay it out: they test that a payout is
    // sent exactly once, not the production hold and weekly limit on a new seller's earnings.
    PAYOUT_NEW_SELLER_HOLD_HOURS: '0',
    PAYOUT_NEW_SELLER_INTERVAL_HOURS: '0',
    // Nor the hold after a destination change (issue 30), and the cluster runs on the shipped
    // seed rates, which production's 48-hour rate-age bound would refuse.
    DESTINATION_CHANGE_HOLD_HOURS: '0',
    FX_MAX_RATE_AGE_HOURS: '0',
    // All load comes from one address; per-IP budgets meant for attackers would throttle it.
    RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_RATE_LIMIT_PER_MINUTE: '100000000',
    SENSITIVE_RATE_LIMIT_PER_MINUTE: '100000',
    SIGN_IN_PER_IP_LIMIT: '100000',
    PASSWORD_RESET_PER_IP_LIMIT: '100000',
    ...flutterwave?.env,
    ...extraEnv,
  };

  const layout: StackEntry[] = SERVICES.flatMap((service) =>
    REPLICAS.map((replica) => {
      const port = ports.get(entryName(service, replica))!;
      return {
        name: entryName(service, replica),
        service,
        port,
        env: { PORT: String(port), DATABASE_URL: databaseUrls.get(service)! },
      };
    }),
  );
  const logs: string[] = [];
  const stack = await startStack({
    env,
    layout,
    busUsers,
    logLevel: 'warn',
    maxCrashes: 50,
    crashWindowMs: 60_000,
    // Kubernetes and compose restart a process that dies while starting; one CI run lost a
    // whole file to a start-up exit it could not show (the message was cut from its output).
    startUpRestarts: 2,
    readyTimeoutMs: 120_000,
    output: {
      write: (line: string) => {
        logs.push(line);
        appendFileSync(logFile, line);
      },
    },
  }).catch(async (error: Error) => {
    // No Cluster is returned, so no afterAll can stop what was started: stop it here (a
    // failed start once left a three-node NATS, a Redis and a database behind).
    for (const front of [...fronts.values(), ...databaseFronts.values()]) await front.close();
    await Promise.all([
      nats.stop(),
      (redisGroup ?? redisPrimary).stop(),
      s3.stop(),
      flutterwave?.stop(),
    ]).catch(() => undefined);
    await dropDatabase(directUrl).catch(() => undefined);
    // The scratch directory stays: its stack.log is the whole story of the failed start.
    throw new Error(
      `${error.message}; every process's log in ${logFile}; the last lines:\n${logs.slice(-20).join('')}`,
    );
  });
  // A multi-host URL needs libs/db's host selection, so the suite's view follows a failover too.
  const db = options.databaseUrl
    ? createPool({ connectionString: directUrl, schema: 'public', max: 4 })
    : new pg.Pool({ connectionString: directUrl, max: 4 });

  const readyz = async (port: number) => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, {
        signal: AbortSignal.timeout(2_000),
      });
      return response.ok;
    } catch {
      return false;
    }
  };
  const untilReady = async (name: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await readyz(ports.get(name)!))) {
      if (Date.now() > deadline)
        throw new Error(`${name} not ready within ${timeoutMs} ms; logs in ${logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  return {
    baseUrl,
    replicaUrl: (service, replica) => `http://127.0.0.1:${ports.get(entryName(service, replica))}`,
    env,
    namespace,
    db,
    nats,
    natsAuth: suiteNatsAuth,
    natsNodes,
    redis: redisPrimary,
    redisGroup,
    async cutDatabase(services = SERVICES) {
      if (options.databaseUrl)
        throw new Error('no database fronts: the services reach it directly');
      await Promise.all(services.map((service) => databaseFronts.get(service)!.cut()));
    },
    async restoreDatabase() {
      for (const front of databaseFronts.values()) if (!front.listening) await front.restore();
    },
    s3,
    sandboxWebhookSecret,
    flutterwave,
    logs,
    pids: () => stack.pids(),
    async killReplica(service, replica, { wait = true } = {}) {
      const name = entryName(service, replica);
      const pid = stack.pids()[name];
      if (!pid) throw new Error(`${name} is not running`);
      process.kill(pid, 'SIGKILL');
      if (!wait) return;
      // The launcher notices the exit, waits, and starts it again.
      const deadline = Date.now() + 60_000;
      while (stack.pids()[name] === pid) {
        if (Date.now() > deadline) throw new Error(`${name} was not restarted`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await untilReady(name, 60_000);
    },
    async allReady(timeoutMs = 60_000) {
      await Promise.all([...ports.keys()].map((name) => untilReady(name, timeoutMs)));
    },
    async stop() {
      await stack.stop();
      await db.end();
      for (const front of fronts.values()) await front.close();
      for (const front of databaseFronts.values()) await front.close();
      // The streams go with the NATS servers' own directories (the operator may not delete them).
      await Promise.all([
        nats.stop(),
        (redisGroup ?? redisPrimary).stop(),
        s3.stop(),
        flutterwave?.stop(),
      ]);
      await dropDatabase(directUrl).catch(() => undefined);
      // CHAOS_LOGS=<directory> keeps every replica's log lines for reading after the run.
      if (process.env.CHAOS_LOGS)
        await copyFile(logFile, path.join(process.env.CHAOS_LOGS, `stack-${runId}.log`));
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

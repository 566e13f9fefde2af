import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@lockdrop/testing';

/**
 * What a server of this kind says first: a launch counts only when the process at the port
 * answers in its own protocol, not when something, anything, accepts a connection there.
 */
interface Greeting {
  send?: string;
  expect: string;
}

function greets(port: number, greeting: Greeting, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    let heard = '';
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      if (greeting.send) socket.write(greeting.send);
    });
    const settle = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => settle(false));
    socket.on('error', () => settle(false));
    socket.on('close', () => settle(false));
    socket.on('data', (chunk) => {
      heard += chunk.toString('latin1');
      if (heard.startsWith(greeting.expect)) settle(true);
      else if (heard.length >= greeting.expect.length) settle(false);
    });
  });
}

/**
 * A server binary the suite owns (nats-server, redis-server): its own port and data directory,
 * so the suite can kill -9 and restart it without touching the machine's.
 */
export interface OwnedServer {
  url: string;
  port: number;
  /** kill -9. */
  crash(): Promise<void>;
  /** The same command on the same data directory (what a supervisor does after a crash). */
  restart(): Promise<void>;
  crashAndRestart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function ownServer(
  what: string,
  scheme: string,
  command: string,
  greeting: Greeting,
  args: (port: number, directory: string) => string[],
  fixedPort?: number,
): Promise<OwnedServer> {
  const directory = await mkdtemp(path.join(tmpdir(), `lockdrop-chaos-${what}-`));
  let port = fixedPort ?? 0;
  let child: ChildProcess;
  let output = '';
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  /**
   * Starts the server and waits until it answers. Between `freePort()` and the server's own
   * bind, another listener of this process may take the port (the kernel hands port 0 out
   * again); the server then exits, and the launch says so instead of reporting the other
   * listener as ours.
   */
  const launch = async (timeoutMs = 15_000) => {
    output = '';
    child = spawn(command, args(port, directory), { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (exited()) throw new Error(`${what} exited on port ${port}:\n${output}`);
      if (await greets(port, greeting)) {
        if (!exited()) return;
      }
      if (Date.now() > deadline) throw new Error(`${what} did not answer on ${port}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const firstLaunch = async (attempt = 1): Promise<void> => {
    // A server that must be found at a port named in advance (a cluster's routes) gets one try.
    if (fixedPort) return launch();
    port = await freePort();
    try {
      await launch();
    } catch (error) {
      if (!exited() || attempt >= 3) throw error;
      await firstLaunch(attempt + 1);
    }
  };
  const kill = async (signal: NodeJS.Signals) => {
    if (exited()) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await gone;
  };
  await firstLaunch();
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    crash: () => kill('SIGKILL'),
    restart: () => launch(),
    async crashAndRestart(downMs = 2_000) {
      await kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await launch();
    },
    async stop() {
      await kill('SIGTERM');
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * `-c` with the rest of a server's configuration (the `authorization` block of the bus's users),
 * written into its own directory; the command-line options still say where it listens.
 */
function natsConfigArgs(directory: string, config: string | undefined): string[] {
  if (!config) return [];
  const file = path.join(directory, 'nats.conf');
  writeFileSync(file, config, { mode: 0o600 });
  return ['-c', file];
}

/**
 * NATS with JetStream storing to disk: streams and consumers survive a restart. `config`: more
 * of its configuration (libs/bus `natsAuthorization`: a user per service).
 */
export const startNats = (config?: string) =>
  ownServer('nats', 'nats', 'nats-server', { expect: 'INFO {' }, (port, directory) => [
    ...natsConfigArgs(directory, config),
    '-js',
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    '-sd',
    directory,
  ]);

/** One node of a NATS cluster: its name, as JetStream reports a stream's leader. */
export interface NatsNode extends OwnedServer {
  name: string;
}

/**
 * Three (or `size`) nats-server processes with JetStream on disk, routed to each other on
 * loopback: a JetStream cluster whose streams keep replicas on several nodes. `url` of each
 * node is its own client port; `urls` lists them all, as a client's seed list. `config`: more of
 * every node's configuration, as for `startNats`.
 */
export async function startNatsCluster(
  size = 3,
  config?: string,
): Promise<{ nodes: NatsNode[]; urls: string }> {
  const clusterName = `chaos_${Math.random().toString(36).slice(2, 8)}`;
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  // Distinct ports, all taken before any node starts: each node's routes name the others'.
  while (clientPorts.length < size) {
    const [client, route] = [await freePort(), await freePort()];
    if ([...clientPorts, ...routePorts, client].includes(route)) continue;
    clientPorts.push(client);
    routePorts.push(route);
  }
  const routes = routePorts.map((port) => `nats-route://127.0.0.1:${port}`).join(',');
  const nodes: NatsNode[] = [];
  try {
    for (let index = 0; index < size; index += 1) {
      const name = `n${index + 1}`;
      const server = await ownServer(
        `nats-${name}`,
        'nats',
        'nats-server',
        { expect: 'INFO {' },
        (port, directory) => [
          ...natsConfigArgs(directory, config),
          '-js',
          '-a',
          '127.0.0.1',
          '-p',
          String(port),
          '-sd',
          directory,
          '-n',
          name,
          '--cluster_name',
          clusterName,
          '--cluster',
          `nats://127.0.0.1:${routePorts[index]}`,
          '--routes',
          routes,
        ],
        clientPorts[index],
      );
      nodes.push(Object.assign(server, { name }));
    }
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw error;
  }
  return { nodes, urls: nodes.map((node) => node.url).join(',') };
}

/**
 * Redis with its append-only file, as BullMQ asks of a production Redis: queued and delayed
 * jobs survive a restart.
 */
export const startRedis = () =>
  ownServer(
    'redis',
    'redis',
    'redis-server',
    { send: 'PING\r\n', expect: '+PONG' },
    (port, directory) => [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      directory,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
    ],
  );

const redisArgs = (port: number, directory: string) => [
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--dir',
  directory,
  '--save',
  '',
  '--appendonly',
  'yes',
  '--appendfsync',
  'always',
];

const sentinelGreeting = { send: 'PING\r\n', expect: '+PONG' };

/**
 * Redis as a production Sentinel deployment runs it, on loopback: a primary, one replica, and
 * three Sentinels (quorum 2) watching `masterName`, quick to act (down after 1 s). Clients find
 * the primary by asking the Sentinels (REDIS_SENTINELS, REDIS_SENTINEL_NAME).
 */
export interface RedisSentinelGroup {
  masterName: string;
  primary: OwnedServer;
  replica: OwnedServer;
  sentinels: OwnedServer[];
  /** `127.0.0.1:p1,127.0.0.1:p2,…`, as REDIS_SENTINELS takes them. */
  sentinelList: string;
  /** The port the Sentinels currently name as the master's. */
  masterPort(): Promise<number>;
  stop(): Promise<void>;
}

/** One command to a Redis-protocol server; the raw reply. */
export function redisCommand(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(2_000, () => socket.destroy(new Error('redis command timed out')));
    socket.on('error', reject);
    socket.on('connect', () =>
      socket.write(
        `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`,
      ),
    );
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      // Enough for the replies read here: a simple line, or a two-element array of bulk strings.
      const complete = reply.startsWith('*2')
        ? reply.split('\r\n').length >= 6
        : reply.endsWith('\r\n');
      if (complete) {
        socket.end();
        resolve(reply);
      }
    });
  });
}

export async function startRedisSentinelGroup(): Promise<RedisSentinelGroup> {
  const masterName = 'lockdrop';
  const started: OwnedServer[] = [];
  try {
    const primary = await ownServer(
      'redis-primary',
      'redis',
      'redis-server',
      sentinelGreeting,
      redisArgs,
    );
    started.push(primary);
    const replica = await ownServer(
      'redis-replica',
      'redis',
      'redis-server',
      sentinelGreeting,
      (port, directory) => [
        ...redisArgs(port, directory),
        '--replicaof',
        '127.0.0.1',
        String(primary.port),
      ],
    );
    started.push(replica);
    const sentinels: OwnedServer[] = [];
    for (let index = 0; index < 3; index += 1) {
      const sentinel = await ownServer(
        `redis-sentinel-${index}`,
        'redis',
        'redis-server',
        sentinelGreeting,
        (port, directory) => {
          // A Sentinel rewrites its own configuration file (what it learnt about the group).
          // A restarted Sentinel keeps what it learnt: the file is written once.
          const file = path.join(directory, 'sentinel.conf');
          if (!existsSync(file))
            writeFileSync(
              file,
              [
                `port ${port}`,
                'bind 127.0.0.1',
                `dir ${directory}`,
                `sentinel monitor ${masterName} 127.0.0.1 ${primary.port} 2`,
                `sentinel down-after-milliseconds ${masterName} 1000`,
                `sentinel failover-timeout ${masterName} 10000`,
                `sentinel parallel-syncs ${masterName} 1`,
                '',
              ].join('\n'),
            );
          return [file, '--sentinel'];
        },
      );
      sentinels.push(sentinel);
      started.push(sentinel);
    }
    const masterPort = async () => {
      for (const sentinel of sentinels) {
        const reply = await redisCommand(
          sentinel.port,
          'SENTINEL',
          'get-master-addr-by-name',
          masterName,
        ).catch(() => null);
        const port = reply?.split('\r\n')[4];
        if (port) return Number(port);
      }
      throw new Error('no Sentinel answered');
    };
    return {
      masterName,
      primary,
      replica,
      sentinels,
      sentinelList: sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(','),
      masterPort,
      async stop() {
        await Promise.all(started.map((server) => server.stop()));
      },
    };
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
}

/**
 * A TCP front for several back ends, as a Kubernetes Service is for a Deployment's pods:
 * each new connection goes to the next back end in turn, skipping one that refuses. `cut()`
 * drops every open connection and refuses new ones (the network to a database gone) until
 * `restore()`.
 */
export interface TcpFront {
  port: number;
  readonly listening: boolean;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpFront(targets: number[], port?: number): Promise<TcpFront> {
  const listenPort = port ?? (await freePort());
  const sockets = new Set<net.Socket>();
  let next = 0;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const connectUpstream = (client: net.Socket, tried = 0) => {
    const target = targets[next++ % targets.length]!;
    const upstream = net.connect({ host: '127.0.0.1', port: target });
    let connected = false;
    track(upstream);
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
    });
    upstream.once('error', () => {
      if (connected || client.destroyed) return client.destroy();
      if (tried + 1 < targets.length) connectUpstream(client, tried + 1);
      else client.destroy();
    });
  };
  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    connectUpstream(client);
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listenPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const closeServer = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen();
  return {
    port: listenPort,
    get listening() {
      return server.listening;
    },
    cut: closeServer,
    restore: listen,
    close: closeServer,
  };
}

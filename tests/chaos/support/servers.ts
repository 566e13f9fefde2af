import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@lockdrop/testing';
import { canConnect } from '../../../tools/reachable.mjs';

async function untilAccepting(port: number, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await canConnect(`http://127.0.0.1:${port}`, 500))) {
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
  args: (port: number, directory: string) => string[],
): Promise<OwnedServer> {
  const port = await freePort();
  const directory = await mkdtemp(path.join(tmpdir(), `lockdrop-chaos-${what}-`));
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(command, args(port, directory), { stdio: 'ignore' });
    await untilAccepting(port, what);
  };
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  await launch();
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    crash: () => kill('SIGKILL'),
    restart: launch,
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

/** NATS with JetStream storing to disk: streams and consumers survive a restart. */
export const startNats = () =>
  ownServer('nats', 'nats', 'nats-server', (port, directory) => [
    '-js',
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    '-sd',
    directory,
  ]);

/**
 * Redis with its append-only file, as BullMQ asks of a production Redis: queued and delayed
 * jobs survive a restart.
 */
export const startRedis = () =>
  ownServer('redis', 'redis', 'redis-server', (port, directory) => [
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
  ]);

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

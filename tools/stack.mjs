// Starts the whole back end as separate processes (what `npm start` and the e2e run use):
// checks that PostgreSQL, Redis and NATS answer, builds what is stale, spawns every service
// and the gateway with prefixed readable logs, and waits until each reports ready.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { natsAuthorization } from '@lockdrop/bus';
import { formatLogLine } from './log-format.mjs';
import { canConnect } from './reachable.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SERVICES = ['identity', 'catalog', 'payments', 'delivery', 'analytics', 'worker'];
const BASE_PORTS = { identity: 1, catalog: 2, payments: 3, delivery: 4, analytics: 5, worker: 6 };

/**
 * Node arguments of a service's processes beyond `--enable-source-maps` (the Kubernetes and compose
 * manifests set the same in NODE_OPTIONS; deploy/test holds them to this). Upload bodies stream
 * through delivery and the gateway, one new 64 KiB buffer per socket read. With V8's default
 * 16 MiB semi-spaces, delivery ran a full mark of its 30 MB heap every ≈35 MB uploaded, and that
 * marking (on V8's helper threads) was a third of its CPU during uploads. With 32 MiB semi-spaces
 * it still marks, a fifth less often, and 1 GiB uploads measured 0.81–0.86 of the floor against
 * 0.74 (issue 31, docs/performance.md).
 */
export const SERVICE_NODE_ARGS = {
  delivery: ['--max-semi-space-size=32'],
  gateway: ['--max-semi-space-size=32'],
};

const postgresAndRedis = [
  {
    name: 'PostgreSQL',
    envVar: 'DATABASE_URL',
    fallback: 'postgres://postgres@127.0.0.1:5432/lockdrop',
    howToStart: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  },
  {
    name: 'Redis',
    envVar: 'REDIS_URL',
    fallback: 'redis://127.0.0.1:6379',
    howToStart: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379',
  },
];
const nats = {
  name: 'NATS',
  envVar: 'NATS_URL',
  fallback: 'nats://127.0.0.1:4222',
  howToStart: 'nats-server -js -a 127.0.0.1 -p 4222 &',
};

/**
 * Returns a one-line explanation for the first unreachable dependency, or null. `ownNats`: the
 * launcher starts a NATS of its own (npm start), so only PostgreSQL and Redis must be running.
 */
export async function checkDependencies(env, { ownNats = false } = {}) {
  for (const dependency of ownNats ? postgresAndRedis : [...postgresAndRedis, nats]) {
    const url = env[dependency.envVar] ?? dependency.fallback;
    if (!(await canConnect(url))) {
      return `${dependency.name} is not reachable at ${url} — start it (${dependency.howToStart}) or set ${dependency.envVar}.`;
    }
  }
  return null;
}

/**
 * What every launcher does first (`npm start`, the e2e run, the benchmark): stop with a
 * one-line explanation when PostgreSQL, Redis or NATS is unreachable, then build what is stale.
 */
export async function prepareStack(env = process.env, options = {}) {
  const problem = await checkDependencies(env, options);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  buildStale();
}

/** Builds every project whose inputs changed (Nx cache makes an up-to-date build take seconds). */
export function buildStale() {
  const result = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
  if (result.status !== 0) throw new Error('build failed');
}

/** Ports: gateway on `gatewayPort`, services on `servicePortBase + n` (3001… by default). */
export function stackLayout({ gatewayPort = 8080, servicePortBase = 3000 } = {}) {
  const ports = Object.fromEntries(
    SERVICES.map((name) => [name, servicePortBase + BASE_PORTS[name]]),
  );
  const url = (name) => `http://127.0.0.1:${ports[name]}`;
  // Every process gets every address; each service reads only the ones its config declares.
  const shared = {
    JWKS_URL: `${url('identity')}/.well-known/jwks.json`,
    PUBLIC_URL: `http://localhost:${gatewayPort}`,
    IDENTITY_URL: url('identity'),
    CATALOG_URL: url('catalog'),
    PAYMENTS_URL: url('payments'),
    DELIVERY_URL: url('delivery'),
    ANALYTICS_URL: url('analytics'),
    WORKER_URL: url('worker'),
  };
  const processes = SERVICES.map((name) => ({
    name,
    port: ports[name],
    env: { ...shared, PORT: String(ports[name]) },
  }));
  processes.push({
    name: 'gateway',
    port: gatewayPort,
    env: { ...shared, PORT: String(gatewayPort) },
  });
  return processes;
}

/**
 * The secrets production mode refuses to start without, made up for one run (the benchmark
 * and the chaos suite run the stack as a deployment does).
 */
export function productionSecrets() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { kty, crv, d, x } = privateKey.export({ format: 'jwk' });
  return {
    JWT_PRIVATE_KEYS: JSON.stringify({ keys: [{ kty, crv, d, x, kid: randomUUID() }] }),
    DOWNLOAD_SIGNING_KEY: randomBytes(32).toString('base64url'),
    PAYOUT_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    WEBHOOK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    PAYOUT_INSTRUCTION_KEYS: `i1:${randomBytes(32).toString('base64')}`,
    API_KEY_HASH_SECRET: randomBytes(32).toString('base64url'),
    VISITOR_ID_SECRET: randomBytes(32).toString('base64url'),
  };
}

/**
 * The NATS login of the process `entry` runs (issue 30): its service's own user from `users`
 * (one per role of libs/bus/src/permissions.ts), so every process may publish and subscribe
 * only what the permissions table gives its service — as compose and Kubernetes run it.
 */
export function busLogin(users, entry) {
  const role = entry.service ?? entry.name;
  const login = users.find((user) => user.role === role);
  if (!login) throw new Error(`no NATS user for ${role}`);
  return { NATS_USER: login.user, NATS_PASSWORD: login.password };
}

/**
 * A nats-server of the stack's own (npm start): JetStream on disk in `storeDir`, on loopback at
 * `port`, with one user per service generated from the permissions table (`users`, passwords
 * made up for this run). Resolves once it is ready; `stop()` ends it. Throws with one line when
 * the binary is missing or the server will not start (the port taken, a bad store).
 */
export async function startLocalNats({
  port,
  storeDir,
  namespace,
  users,
  readyTimeoutMs = 15_000,
}) {
  mkdirSync(storeDir, { recursive: true });
  const configFile = path.join(storeDir, 'nats.conf');
  writeFileSync(
    configFile,
    [
      `listen: "127.0.0.1:${port}"`,
      `jetstream { store_dir: ${JSON.stringify(path.join(storeDir, 'jetstream'))} }`,
      natsAuthorization({ namespace, users }),
    ].join('\n'),
    { mode: 0o600 },
  );
  const child = spawn('nats-server', ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4_000)));
  const exited = new Promise((resolve) => {
    child.once('error', (error) => resolve(error));
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
  });
  const ready = await Promise.race([
    exited.then((how) => {
      if (how instanceof Error && how.code === 'ENOENT')
        throw new Error(
          'nats-server is not on PATH — install it (apt-get install nats-server, or the release from nats.io) or set NATS_URL to a running NATS with JetStream',
        );
      const last = output.trim().split('\n').at(-1) ?? '';
      throw new Error(`nats-server stopped (${how}) on port ${port}: ${last}`);
    }),
    (async () => {
      const deadline = Date.now() + readyTimeoutMs;
      while (!output.includes('Server is ready')) {
        if (Date.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return true;
    })(),
  ]);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`nats-server was not ready on port ${port} within ${readyTimeoutMs / 1000} s`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const COLORS = [36, 35, 33, 32, 34, 31, 96];

/** How a child process ended, as the start-up and crash messages print it. */
const exitOf = (child) => child.signalCode ?? `code ${child.exitCode}`;
/** A crashed process is started again after 1 s, 2 s, 4 s … (at most 30 s). */
const restartDelayMs = (crash) => Math.min(1_000 * 2 ** (crash - 1), 30_000);

/**
 * Spawns every process of `layout` with `env`, prefixes and formats their logs, and resolves
 * once all report ready. After that, a process that dies is restarted with backoff, and the
 * stack gives up (`onGiveUp`) only when one crashes `maxCrashes` times within `crashWindowMs`.
 * The returned `stop()` sends SIGTERM and waits for every exit; `pids()` names each process. `entry.script` replaces the
 * service's bundle (tests); `output` receives the log lines, formatted — or, with `logFile`,
 * every process writes its raw JSON lines straight into that file (no work in this process,
 * which benchmarks want); `nodeArgs` go to every node process (e.g. `--cpu-prof`). An entry
 * named after a replica (`payments-b`) says which service it runs in `entry.service`. With
 * `busUsers` (one NATS user per role, libs/bus `randomBusUsers()`), each process logs in as its
 * service's user (`busLogin`). With `startUpRestarts`, a process that exits before the stack is
 * ready is started again that many times (each exit is written to `output`), as an orchestrator
 * would; by default one exit during start-up fails the start.
 */
export async function startStack({
  env,
  layout,
  logLevel = 'info',
  readyTimeoutMs = 90_000,
  maxCrashes = 5,
  crashWindowMs = 5 * 60_000,
  onGiveUp,
  startUpRestarts = 0,
  output = process.stdout,
  logFile,
  nodeArgs = [],
  busUsers,
}) {
  const logFd = logFile ? openSync(logFile, 'a') : null;
  // Readiness is probed by port, so another stack already there would answer for ours.
  for (const entry of layout) {
    if (await canConnect(`http://127.0.0.1:${entry.port}`, 500)) {
      throw new Error(
        `port ${entry.port} (${entry.name}) is already in use — is another Lockdrop running?`,
      );
    }
  }
  let stopping = false;
  let ready = false;
  const width = Math.max(...layout.map((entry) => entry.name.length));

  const supervise = (entry, index) => {
    const label = `\x1b[${COLORS[index % COLORS.length]}m${entry.name.padEnd(width)}\x1b[0m │`;
    const managed = {
      entry,
      child: null,
      crashes: [],
      restartTimer: null,
      startUpExits: 0,
    };
    const launchAfter = (delay) => {
      managed.restartTimer = setTimeout(() => {
        managed.restartTimer = null;
        if (!stopping) launch();
      }, delay);
    };
    const launch = () => {
      const child = spawn(
        process.execPath,
        [
          '--enable-source-maps',
          ...(SERVICE_NODE_ARGS[entry.service ?? entry.name] ?? []),
          ...nodeArgs,
          entry.script ??
            path.join(root, 'services', entry.service ?? entry.name, 'dist', 'main.js'),
        ],
        {
          cwd: root,
          env: {
            ...process.env,
            ...env,
            ...(busUsers ? busLogin(busUsers, entry) : {}),
            ...entry.env,
            LOG_LEVEL: env.LOG_LEVEL ?? logLevel,
            NODE_ENV: env.NODE_ENV ?? 'development',
          },
          stdio: logFd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
        },
      );
      for (const stream of logFd === null ? [child.stdout, child.stderr] : []) {
        let buffered = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          buffered += chunk;
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          for (const line of lines)
            if (line.trim()) output.write(`${label} ${formatLogLine(line)}\n`);
        });
      }
      child.on('exit', () => {
        child.exited = true;
        if (stopping) return;
        if (!ready) {
          // As an orchestrator restarts a pod that dies while starting; the start-up loop
          // below gives up once these are spent.
          if (managed.startUpExits >= startUpRestarts) return;
          managed.startUpExits += 1;
          const delay = restartDelayMs(managed.startUpExits);
          output.write(
            `${label} exited during start-up (${exitOf(child)}); starting it again in ${delay / 1000} s (${managed.startUpExits} of ${startUpRestarts} allowed)\n`,
          );
          launchAfter(delay);
          return;
        }
        const now = Date.now();
        managed.crashes = [...managed.crashes.filter((at) => now - at < crashWindowMs), now];
        const crash = managed.crashes.length;
        const how = exitOf(child);
        if (crash >= maxCrashes) {
          output.write(
            `${label} exited (${how}); ${crash} crashes within ${crashWindowMs / 60_000} min, giving up\n`,
          );
          onGiveUp?.(entry.name);
          return;
        }
        const delay = restartDelayMs(crash);
        output.write(
          `${label} exited (${how}); restarting in ${delay / 1000} s (crash ${crash} of ${maxCrashes} allowed within ${crashWindowMs / 60_000} min)\n`,
        );
        launchAfter(delay);
      });
      managed.child = child;
    };
    launch();
    return managed;
  };
  const processes = layout.map(supervise);

  const stop = async () => {
    stopping = true;
    await Promise.all(
      processes.map(
        (managed) =>
          new Promise((resolve) => {
            clearTimeout(managed.restartTimer);
            const { child } = managed;
            if (child.exited || child.exitCode !== null) return resolve();
            const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };

  const deadline = Date.now() + readyTimeoutMs;
  try {
    await Promise.all(
      processes.map(async (managed) => {
        const { entry } = managed;
        for (;;) {
          const { child } = managed;
          if ((child.exitCode !== null || child.exited) && managed.restartTimer === null)
            throw new Error(`${entry.name} exited during start-up (${exitOf(child)})`);
          if (Date.now() > deadline)
            throw new Error(`${entry.name} was not ready within ${readyTimeoutMs / 1000} s`);
          try {
            const response = await fetch(`http://127.0.0.1:${entry.port}/readyz`, {
              signal: AbortSignal.timeout(2_000),
            });
            if (response.ok) return;
          } catch {
            // not listening yet
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  ready = true;
  /** The current process id of each entry (benchmarks read CPU time and memory; chaos kills). */
  const pids = () =>
    Object.fromEntries(processes.map(({ entry, child }) => [entry.name, child?.pid ?? null]));
  return { stop, pids };
}

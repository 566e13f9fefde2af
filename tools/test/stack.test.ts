import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { natsAuth, randomBusUsers } from '@lockdrop/bus';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { busLogin, SERVICE_NODE_ARGS, stackLayout, startLocalNats, startStack } from '../stack.mjs';

const script = path.join(import.meta.dirname, 'fixtures', 'crashing-service.mjs');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const pidOf = async (port: number): Promise<number | null> => {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return ((await response.json()) as { pid: number }).pid;
  } catch {
    return null;
  }
};
const crash = (port: number) => fetch(`http://127.0.0.1:${port}/crash`).catch(() => undefined);

async function until<T>(check: () => Promise<T | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let stop: (() => Promise<void>) | undefined;
const scratchDirs: string[] = [];
afterEach(async () => {
  await stop?.();
  stop = undefined;
  await Promise.all(scratchDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function start(
  options: {
    maxCrashes?: number;
    onGiveUp?: (name: string) => void;
    startUpRestarts?: number;
    failedStarts?: number;
  } = {},
) {
  const { failedStarts, ...launcherOptions } = options;
  const port = await freePort();
  const lines: string[] = [];
  let failingStarts = {};
  if (failedStarts) {
    const markerDir = await mkdtemp(path.join(tmpdir(), 'lockdrop-launcher-'));
    scratchDirs.push(markerDir);
    failingStarts = {
      FAIL_STARTS: String(failedStarts),
      FAIL_STARTS_MARKER: path.join(markerDir, 'failed-starts'),
    };
  }
  const stack = await startStack({
    env: {},
    layout: [{ name: 'payments', port, env: { PORT: String(port), ...failingStarts }, script }],
    output: { write: (line: string) => lines.push(line) },
    ...launcherOptions,
  });
  stop = stack.stop;
  return { port, lines, stack };
}

describe('the launcher behind npm start', () => {
  it('restarts a process that crashes, and says so', async () => {
    const { port, lines } = await start();
    const first = await pidOf(port);
    await crash(port);
    const second = await until(async () => {
      const pid = await pidOf(port);
      return pid !== null && pid !== first ? pid : null;
    });
    expect(second).not.toBe(first);
    expect(lines.join('')).toMatch(/payments.*exited \(code 1\); restarting in 1 s \(crash 1 of 5/);
  });

  it('gives up after repeated crashes instead of restarting for ever', async () => {
    const gaveUp: string[] = [];
    const { port, lines } = await start({ maxCrashes: 2, onGiveUp: (name) => gaveUp.push(name) });
    await crash(port);
    await until(
      async () => (await pidOf(port)) !== null && lines.some((l) => /restarting/.test(l)),
    );
    await crash(port);
    await until(async () => gaveUp.length > 0);
    expect(gaveUp).toEqual(['payments']);
    expect(lines.join('')).toMatch(/2 crashes within 5 min, giving up/);
  });

  it('starts again a process that dies while starting, as many times as it is told', async () => {
    const { port, lines } = await start({ startUpRestarts: 2, failedStarts: 2 });
    expect(await pidOf(port)).not.toBeNull();
    const said = lines.join('');
    expect(said).toMatch(
      /payments.*exited during start-up \(code 3\); starting it again in 1 s \(1 of 2/,
    );
    expect(said).toMatch(/starting it again in 2 s \(2 of 2/);
  });

  it('fails the start, naming the exit, once those restarts are spent', async () => {
    await expect(start({ startUpRestarts: 1, failedStarts: 2 })).rejects.toThrow(
      'payments exited during start-up (code 3)',
    );
    await expect(start({ failedStarts: 1 })).rejects.toThrow(
      'payments exited during start-up (code 3)',
    );
  });

  it("starts a service's every replica with that service's Node arguments, and only those", async () => {
    const [deliveryPort, replicaPort, paymentsPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const entry = (name: string, port: number, service?: string) => ({
      name,
      port,
      service,
      env: { PORT: String(port) },
      script,
    });
    const stack = await startStack({
      env: {},
      layout: [
        entry('delivery', deliveryPort),
        entry('delivery-b', replicaPort, 'delivery'),
        entry('payments', paymentsPort),
      ],
      output: { write: () => undefined },
      nodeArgs: ['--stack-trace-limit=20'],
    });
    stop = stack.stop;
    const argsOf = async (port: number) =>
      ((await (await fetch(`http://127.0.0.1:${port}/`)).json()) as { execArgv: string[] })
        .execArgv;
    for (const port of [deliveryPort, replicaPort])
      expect(await argsOf(port)).toEqual([
        '--enable-source-maps',
        ...SERVICE_NODE_ARGS.delivery!,
        '--stack-trace-limit=20',
      ]);
    expect(await argsOf(paymentsPort)).toEqual(['--enable-source-maps', '--stack-trace-limit=20']);
  });

  it('does not restart what it stops on purpose', async () => {
    const { port, stack } = await start();
    await stack.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await pidOf(port)).toBeNull();
  });
});

describe('ports', () => {
  it('moves every service with the base port, so two stacks can run side by side', () => {
    const ports = (layout: { port: number }[]) => layout.map((entry) => entry.port);
    const standard = ports(stackLayout());
    const second = ports(stackLayout({ gatewayPort: 9080, servicePortBase: 9000 }));
    expect(standard).toEqual([3001, 3002, 3003, 3004, 3005, 3006, 8080]);
    expect(second).toEqual([9001, 9002, 9003, 9004, 9005, 9006, 9080]);
    const gateway = stackLayout({ gatewayPort: 9080, servicePortBase: 9000 }).at(-1)!;
    expect(gateway.env.PAYMENTS_URL).toBe('http://127.0.0.1:9003');
  });
});

describe("npm start's NATS (issue 30)", () => {
  it('runs with one user per service: each process gets its own login, and no login is refused', async () => {
    const users = randomBusUsers();
    const storeDir = await mkdtemp(path.join(tmpdir(), 'lockdrop-start-nats-'));
    const nats = await startLocalNats({
      port: await freePort(),
      storeDir,
      namespace: 'lockdrop',
      users,
    });
    try {
      const payments = busLogin(users, { name: 'payments-b', service: 'payments' });
      expect(payments.NATS_USER).toBe('payments');
      expect(busLogin(users, { name: 'gateway' }).NATS_PASSWORD).not.toBe(payments.NATS_PASSWORD);
      const connection = await connect({
        servers: nats.url,
        ...natsAuth(payments.NATS_USER, payments.NATS_PASSWORD),
      });
      await connection.close();
      await expect(connect({ servers: nats.url })).rejects.toThrow(/authorization/i);
      await expect(
        connect({ servers: nats.url, user: 'gateway', pass: payments.NATS_PASSWORD }),
      ).rejects.toThrow(/authorization/i);
    } finally {
      await nats.stop();
      await rm(storeDir, { recursive: true, force: true });
    }
  });
});

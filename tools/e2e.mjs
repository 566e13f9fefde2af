// `npm run test:e2e`: starts the app exactly as `npm start` does, but on its own ports,
// database, bus namespace and Redis prefix, runs the browser tests against it, and cleans up.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dropDatabase, withDatabaseName } from '@lockdrop/db';
import { deleteStreams } from '@lockdrop/testing';
import { prepareStack, root, stackLayout, startStack } from './stack.mjs';

await prepareStack();

const runId = randomBytes(4).toString('hex');
const gatewayPort = Number(process.env.E2E_PORT ?? 18080);
// The custom-domain journey's fake DNS server (libs/testing startFakeDns) listens here; catalog
// asks it, as production asks the real DNS.
const dnsPort = gatewayPort - 27;
const env = {
  ...process.env,
  DATABASE_URL: withDatabaseName(
    process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lockdrop',
    `lockdrop_e2e_${runId}`,
  ),
  BUS_NAMESPACE: `e2e${runId}`,
  REDIS_KEY_PREFIX: `lockdrop-e2e-${runId}:`,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // Not the shipped default (3.5%): the suite checks every page states checkout's own rate.
  PROCESSOR_FEE_BPS: '290',
  // Every browser in the run shares 127.0.0.1; per-IP budgets meant for attackers would
  // throttle the suite itself. Per-account limits stay as they are.
  SENSITIVE_RATE_LIMIT_PER_MINUTE: '10000',
  RATE_LIMIT_PER_MINUTE: '100000',
  SIGN_IN_PER_IP_LIMIT: '10000',
  PASSWORD_RESET_PER_IP_LIMIT: '10000',
  // Payout journeys pay a sale out at once (earnings skip the 24-hour refund window, which
  // refund journeys still use) and the sandbox transfer completes within seconds.
  PAYOUT_HOLD_HOURS: '-24',
  SANDBOX_PAYOUT_DELAY_MS: '2000',
  // The webhook journey's receiver listens on 127.0.0.1 (refused without this, as in production).
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  DNS_SERVERS: `127.0.0.1:${dnsPort}`,
  DNS_TIMEOUT_MS: '1000',
  EDGE_HOST: 'edge.lockdrop.test',
};

let status = 1;
const stack = await startStack({
  env,
  layout: stackLayout({ gatewayPort, servicePortBase: gatewayPort - 80 }),
});
try {
  const result = spawnSync(
    'npx',
    ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...env,
        E2E_BASE_URL: `http://localhost:${gatewayPort}`,
        E2E_DNS_PORT: String(dnsPort),
      },
    },
  );
  status = result.status ?? 1;
} finally {
  await stack.stop();
  await deleteStreams(env.NATS_URL ?? 'nats://127.0.0.1:4222', env.BUS_NAMESPACE).catch(
    () => undefined,
  );
  await dropDatabase(env.DATABASE_URL).catch(() => undefined);
}
process.exit(status);

// `npm start`: the whole stack on http://localhost:8080 (see README for configuration).
import path from 'node:path';
import { randomBusUsers } from '@lockdrop/bus';
import { busLogin, prepareStack, root, stackLayout, startLocalNats, startStack } from './stack.mjs';

// Without NATS_URL the stack runs a NATS of its own with one user per service (issue 30), as
// compose and Kubernetes do, so a permission missing from libs/bus/src/permissions.ts shows up
// here first. NATS_URL: that NATS instead, as it is (the credentials are the environment's).
const ownNats = !process.env.NATS_URL;
await prepareStack(process.env, { ownNats });

const gatewayPort = Number(process.env.PORT ?? 8080);
// Services listen on SERVICE_PORT_BASE + 1 … + 6 and the stack's NATS on + 7, so a second stack
// can run beside this one.
const servicePortBase = Number(process.env.SERVICE_PORT_BASE ?? 3000);
let stack;
let nats;
const env = { ...process.env };
let busUsers;
try {
  if (ownNats) {
    busUsers = randomBusUsers();
    nats = await startLocalNats({
      port: servicePortBase + 7,
      // Kept between runs like the database: events and consumers' positions survive a restart.
      storeDir: path.join(root, '.data', `nats-${servicePortBase + 7}`),
      namespace: process.env.BUS_NAMESPACE ?? 'lockdrop',
      users: busUsers,
    });
    env.NATS_URL = nats.url;
  }
  stack = await startStack({
    env,
    busUsers,
    layout: stackLayout({ gatewayPort, servicePortBase }),
    onGiveUp: async (name) => {
      console.error(`${name} keeps crashing; shutting the stack down.`);
      await stack?.stop();
      await nats?.stop();
      process.exit(1);
    },
  });
} catch (error) {
  console.error(`Could not start Lockdrop: ${error.message}`);
  await nats?.stop();
  process.exit(1);
}

console.log(`\n  Lockdrop is running at http://localhost:${gatewayPort}  (Ctrl-C to stop)\n`);
if (nats) {
  // The operator tools (npm run dlq) log in as `operator` on this run's NATS.
  const operator = busLogin(busUsers, { name: 'operator' });
  console.log(
    `  NATS for this run: ${nats.url} — the tools: NATS_URL=${nats.url} NATS_USER=${operator.NATS_USER} NATS_PASSWORD=${operator.NATS_PASSWORD}\n`,
  );
}

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping Lockdrop…');
  await stack.stop();
  await nats?.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

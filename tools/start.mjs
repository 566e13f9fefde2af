// `npm start`: the whole stack on http://localhost:8080 (see README for configuration).
import { prepareStack, stackLayout, startStack } from './stack.mjs';

await prepareStack();

const gatewayPort = Number(process.env.PORT ?? 8080);
// Services listen on SERVICE_PORT_BASE + 1 … + 6, so a second stack can run beside this one.
const servicePortBase = Number(process.env.SERVICE_PORT_BASE ?? 3000);
let stack;
try {
  stack = await startStack({
    env: process.env,
    layout: stackLayout({ gatewayPort, servicePortBase }),
    onGiveUp: async (name) => {
      console.error(`${name} keeps crashing; shutting the stack down.`);
      await stack?.stop();
      process.exit(1);
    },
  });
} catch (error) {
  console.error(`Could not start Lockdrop: ${error.message}`);
  process.exit(1);
}

console.log(`\n  Lockdrop is running at http://localhost:${gatewayPort}  (Ctrl-C to stop)\n`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping Lockdrop…');
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

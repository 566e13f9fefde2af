import { prepareStack } from '../../../tools/stack.mjs';

/** Stops with one line when the machine's Postgres is down, and builds what is stale. */
export default async function setup() {
  await prepareStack();
}

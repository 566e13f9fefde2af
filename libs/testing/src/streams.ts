import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/**
 * Removes every stream holding subjects of `namespace` (events, dead letters, whatever the bus
 * adds later), so a test file leaves the shared NATS server as it found it. Found by subject
 * rather than by name so this helper needs no knowledge of the bus's stream naming.
 */
export async function deleteStreams(natsUrl: string, namespace: string): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    const names: string[] = [];
    for await (const name of jsm.streams.names(`${namespace}.>`)) names.push(name);
    await Promise.all(names.map((name) => jsm.streams.delete(name)));
  } finally {
    await nc.close();
  }
}

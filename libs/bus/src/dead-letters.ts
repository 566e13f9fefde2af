import { JetStreamApiError, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers } from '@nats-io/transport-node';
import { busHeaders } from './headers.js';
import { natsAuthFromEnv, serverList, type NatsAuthOptions } from './servers.js';
import { assertConsumerName, deadLetterSubject, streamNames } from './naming.js';

// JSStreamNotFoundErr
const STREAM_NOT_FOUND = 10059;

export interface DeadLetter {
  /** Sequence on the dead-letter stream: the handle for replay. */
  sequence: number;
  consumer: string;
  originalSubject: string;
  eventId: string | null;
  eventType: string | null;
  reason: string;
  deliveries: number;
  storedAt: Date;
}

/**
 * Reads and replays what consumers dead-lettered (`npm run dlq`). A replay re-publishes the
 * event on its own subject, where the consumer's durable picks it up again; consumers record
 * processed event ids, so a replay of something already applied — by this consumer or by any
 * other that shares the subject — changes nothing. The dead letter is deleted once re-published.
 */
export async function openDeadLetters({
  url,
  namespace,
  auth = natsAuthFromEnv(),
}: {
  url: string;
  namespace: string;
  /** Who to log in as (the operator); default NATS_USER and NATS_PASSWORD from the environment. */
  auth?: NatsAuthOptions;
}) {
  const nc = await connect({ servers: serverList(url), name: 'dlq', ...auth });
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  const stream = streamNames(namespace).deadLetters;

  async function list(consumer?: string): Promise<DeadLetter[]> {
    if (consumer) assertConsumerName(consumer);
    const letters: DeadLetter[] = [];
    // No stream yet: nothing on this namespace was ever dead-lettered.
    const info = await jsm.streams.info(stream).catch((error: unknown) => {
      if (error instanceof JetStreamApiError && error.code === STREAM_NOT_FOUND) return null;
      throw error;
    });
    if (!info || info.state.messages === 0) return letters;
    const { state } = info;
    for (let sequence = state.first_seq; sequence <= state.last_seq; sequence += 1) {
      const message = await jsm.streams.getMessage(stream, { seq: sequence }).catch(() => null);
      if (!message) continue;
      if (consumer && message.subject !== deadLetterSubject(namespace, consumer)) continue;
      let event: { id?: string; type?: string } = {};
      try {
        event = message.json();
      } catch {
        // Poison that is not even JSON: listed, with no id.
      }
      letters.push({
        sequence,
        consumer: message.header.get(busHeaders.deadLetterConsumer),
        originalSubject: message.header.get(busHeaders.deadLetterSubject),
        eventId: typeof event.id === 'string' ? event.id : null,
        eventType: typeof event.type === 'string' ? event.type : null,
        reason: message.header.get(busHeaders.deadLetterReason),
        deliveries: Number(message.header.get(busHeaders.deadLetterDeliveries)),
        storedAt: message.time,
      });
    }
    return letters;
  }

  async function replay(consumer: string): Promise<DeadLetter[]> {
    const letters = await list(consumer);
    for (const letter of letters) {
      const stored = await jsm.streams.getMessage(stream, { seq: letter.sequence });
      // Replayed by someone else meanwhile.
      if (!stored) continue;
      const hdrs = headers();
      const correlationId = stored.header.get(busHeaders.correlationId);
      if (correlationId) hdrs.set(busHeaders.correlationId, correlationId);
      // A fresh message id: the original one may still be inside the duplicate window.
      await js.publish(letter.originalSubject, stored.data, {
        headers: hdrs,
        msgID: `replay:${consumer}:${letter.sequence}`,
      });
      await jsm.streams.deleteMessage(stream, letter.sequence);
    }
    return letters;
  }

  return {
    list,
    replay,
    close: () => nc.drain(),
  };
}

import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { busHeaders } from './headers.js';
import { deadLetterSubject } from './naming.js';

/** Header values are single-line; keep error messages readable without letting them grow unbounded. */
function headerValue(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 1_000);
}

/**
 * Stores the raw message on the consumer's dead-letter subject, with why and where it came from.
 * The message id is stable per consumer and stream sequence, so a crash between this publish
 * and the `term()` that follows it does not store the message twice when it is redelivered.
 */
export async function publishDeadLetter(
  js: JetStreamClient,
  namespace: string,
  consumer: string,
  msg: JsMsg,
  reason: string,
): Promise<void> {
  const hdrs = headers();
  // Only our own header is carried over: copying Nats-* headers would re-apply the original
  // publish's expectations and message id to this one.
  const correlationId = msg.headers?.get(busHeaders.correlationId);
  if (correlationId) hdrs.set(busHeaders.correlationId, correlationId);
  hdrs.set(busHeaders.deadLetterReason, headerValue(reason));
  hdrs.set(busHeaders.deadLetterSubject, msg.subject);
  hdrs.set(busHeaders.deadLetterConsumer, consumer);
  hdrs.set(busHeaders.deadLetterDeliveries, String(msg.info.deliveryCount));
  await js.publish(deadLetterSubject(namespace, consumer), msg.data, {
    headers: hdrs,
    msgID: `${consumer}:${msg.info.streamSequence}`,
  });
}

import { parseEvent, type DomainEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiError,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { publishDeadLetter } from './dead-letter.js';
import { classifyFailure } from './failures.js';
import { errorMessage, type Logger } from './logger.js';
import {
  assertConsumerName,
  durableName,
  eventSubject,
  filterSubject,
  streamNames,
  type EventFilter,
  type EventMatching,
} from './naming.js';

export interface SubscribeOptions<F extends EventFilter = EventFilter> {
  /** Durable identity, dotted like `delivery.entitlements`: keeps its position across restarts and replicas. */
  consumer: string;
  /** Which events: one type, or `prefix.*`; the handler's event is typed by it. */
  filter: F;
  /** The consumer's own database: its effects and its processed-event record commit together. */
  pool: Pool;
  /** Runs at most once per event id per consumer, inside the transaction `tx`. */
  handler: (event: EventMatching<F>, tx: PoolClient) => Promise<void>;
  /**
   * Deliveries before an event whose handler keeps failing for an unknown reason goes to the
   * dead-letter subject. Outages (database, network) are retried without limit instead, and
   * poison input (unparseable, or a PoisonEventError) is dead-lettered at once.
   */
  maxDeliver?: number;
  /** Redelivery delay after the n-th failed attempt; the last value repeats. */
  backoffMs?: number[];
}

export interface Subscription {
  /** Stops pulling, lets the message being handled finish, and hands buffered ones back to the server. */
  stop(): Promise<void>;
}

interface SubscriptionContext {
  jsm: JetStreamManager;
  js: JetStreamClient;
  namespace: string;
  logger: Logger;
  /** Told about every dead letter (the service counts them on /metrics). */
  onDeadLetter?: (consumer: string) => void;
}

/** After this many failed deliveries of one event in an outage, each further retry logs at error. */
const OUTAGE_ALARM_ATTEMPTS = 10;

// JSConsumerAlreadyExists: servers from 2.10 refuse a create that differs from the existing durable.
const CONSUMER_EXISTS_WITH_OTHER_CONFIG = 10148;
const ACK_WAIT_MS = 30_000;

async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig>,
): Promise<void> {
  try {
    await jsm.consumers.add(stream, config);
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== CONSUMER_EXISTS_WITH_OTHER_CONFIG)
      throw error;
    await jsm.consumers.update(stream, config.durable_name!, config);
  }
}

/**
 * An idempotent consumer: at-least-once delivery from JetStream, exactly-once effect in
 * Postgres. The event id is recorded in `processed_events` in the same transaction as the
 * handler's writes, and the message is acked only after that commit: a crash before the ack
 * redelivers an event whose effect is already recorded, and the handler is skipped.
 */
export async function subscribe<F extends EventFilter>(
  context: SubscriptionContext,
  options: SubscribeOptions<F>,
): Promise<Subscription> {
  const { jsm, js, namespace, logger, onDeadLetter } = context;
  const {
    consumer,
    filter,
    pool,
    handler,
    maxDeliver = 5,
    backoffMs = [1_000, 5_000, 15_000, 60_000],
  } = options;
  assertConsumerName(consumer);
  const stream = streamNames(namespace).events;
  const durable = durableName(consumer);
  const log = { consumer, filter };

  await ensureConsumer(jsm, stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filterSubject(namespace, filter),
    ack_wait: nanos(ACK_WAIT_MS),
    // Unlimited on the server: this code counts deliveries and dead-letters the message itself.
    // A server-side limit would instead drop it silently when the last attempt crashed the process.
    max_deliver: -1,
  });
  const messages: ConsumerMessages = await (
    await js.consumers.get(stream, durable)
  ).consume({ max_messages: 16 });

  const backoffFor = (deliveryCount: number): number =>
    backoffMs[Math.min(deliveryCount, backoffMs.length) - 1] ?? 0;

  const deadLetter = async (msg: JsMsg, reason: string): Promise<void> => {
    try {
      await publishDeadLetter(js, namespace, consumer, msg, reason);
      msg.term();
      onDeadLetter?.(consumer);
      logger.error(
        { ...log, subject: msg.subject, reason },
        `event dead-lettered; replay with: npm run dlq -- replay ${consumer}`,
      );
    } catch (error) {
      // Never term what was not stored: retry the whole message later instead.
      logger.error({ ...log, err: errorMessage(error) }, 'dead-letter publish failed');
      msg.nak(backoffFor(msg.info.deliveryCount));
    }
  };

  const handle = async (msg: JsMsg): Promise<void> => {
    let event: DomainEvent;
    try {
      event = parseEvent(msg.json());
    } catch (error) {
      // Poison input never becomes valid by retrying.
      return deadLetter(msg, `invalid event: ${errorMessage(error)}`);
    }
    if (msg.subject !== eventSubject(namespace, event.type)) {
      return deadLetter(msg, `invalid event: type ${event.type} published on ${msg.subject}`);
    }
    try {
      await withTransaction(pool, async (tx) => {
        const { rowCount } = await tx.query(
          'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [consumer, event.id],
        );
        if (rowCount === 0) return;
        // The subject check above pins the type to the filter.
        await handler(event as EventMatching<F>, tx);
      });
      msg.ack();
    } catch (error) {
      const attempt = msg.info.deliveryCount;
      const kind = classifyFailure(error);
      const details = { ...log, eventId: event.id, attempt, kind, err: errorMessage(error) };
      if (kind === 'poison') return deadLetter(msg, errorMessage(error));
      if (kind === 'unknown' && attempt >= maxDeliver) return deadLetter(msg, errorMessage(error));
      if (kind === 'transient' && attempt >= OUTAGE_ALARM_ATTEMPTS)
        logger.error(details, 'event still waiting for a dependency; will keep retrying');
      else logger.warn(details, 'event handler failed; will retry');
      msg.nak(backoffFor(attempt));
    }
  };

  let stopping = false;
  const loop = (async () => {
    for await (const msg of messages) {
      try {
        // Buffered but not started: hand it straight back so another replica need not wait out ack_wait.
        if (stopping) msg.nak();
        else await handle(msg);
      } catch (error) {
        // An ack or nak that could not be sent (connection closing): the server redelivers after ack_wait.
        logger.error({ ...log, err: errorMessage(error) }, 'message left unacknowledged');
      }
    }
  })();
  loop.catch((error: unknown) =>
    logger.error({ ...log, err: errorMessage(error) }, 'consumer stopped unexpectedly'),
  );

  return {
    async stop() {
      stopping = true;
      await messages.close();
      await loop.catch(() => undefined);
    },
  };
}

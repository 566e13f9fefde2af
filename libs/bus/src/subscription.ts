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
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { publishDeadLetter } from './dead-letter.js';
import { classifyFailure } from './failures.js';
import { withClusterRetry } from './jetstream-api.js';
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

interface SubscribeCommon<F extends EventFilter> {
  /** Durable identity, dotted like `delivery.entitlements`: keeps its position across restarts and replicas. */
  consumer: string;
  /** Which events: one type, or `prefix.*`; the handler's event is typed by it. */
  filter: F;
  /** The consumer's own database: its effects and its processed-event record commit together. */
  pool: Pool;
  /**
   * Deliveries before an event whose handler keeps failing for an unknown reason goes to the
   * dead-letter subject. Outages (database, network) are retried without limit instead, and
   * poison input (unparseable, or a PoisonEventError) is dead-lettered at once.
   */
  maxDeliver?: number;
  /** Redelivery delay after the n-th failed attempt; the last value repeats. */
  backoffMs?: number[];
}

/** Give exactly one of `handler` (one event at a time) and `batchHandler` (many per call). */
export type SubscribeOptions<F extends EventFilter = EventFilter> = SubscribeCommon<F> &
  (
    | {
        /** Runs at most once per event id per consumer, inside the transaction `tx`. */
        handler: (event: EventMatching<F>, tx: PoolClient) => Promise<void>;
        batchHandler?: never;
      }
    | {
        /**
         * Applies several events at once, inside the transaction `tx`, so a consumer of a
         * high-volume event can write them with multi-row statements. The events are distinct
         * by id, in stream order, and none was applied by this consumer before. All of them
         * commit or none: when it throws, each event is retried alone (a call with one event),
         * so a poison event is dead-lettered without holding back the others.
         */
        batchHandler: (events: EventMatching<F>[], tx: PoolClient) => Promise<void>;
        handler?: never;
      }
  );

export interface Subscription {
  /** Stops pulling, lets the message being handled finish, and hands buffered ones back to the server. */
  stop(): Promise<void>;
}

interface SubscriptionContext {
  nc: NatsConnection;
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
/**
 * How long one pull request waits on the server. The client finds a pull lost (its server or
 * the consumer's leader gone, a cluster electing) only after two missed idle heartbeats, each
 * half of this: at the library's 30 s default a consumer stalled ≈30 s after losing a NATS node
 * (tests/chaos/nats-cluster.chaos.ts caught analytics counting nothing for that long); at 5 s it
 * pulls again within ≈5 s, for one empty pull every 5 s per idle consumer.
 */
const PULL_EXPIRES_MS = 5_000;
/** Events one transaction takes at most when a backlog has formed; alone, an event is a batch of one. */
const BATCH_LIMIT = 32;
/** A batch that would wait longer for a row lock (another batch holds it) gives way instead. */
const BATCH_LOCK_TIMEOUT = '50ms' as const;

async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig>,
): Promise<void> {
  try {
    await withClusterRetry(() => jsm.consumers.add(stream, config));
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== CONSUMER_EXISTS_WITH_OTHER_CONFIG)
      throw error;
    await withClusterRetry(() => jsm.consumers.update(stream, config.durable_name!, config));
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
  const { nc, jsm, js, namespace, logger, onDeadLetter } = context;
  const {
    consumer,
    filter,
    pool,
    maxDeliver = 5,
    backoffMs = [1_000, 5_000, 15_000, 60_000],
  } = options;
  assertConsumerName(consumer);
  const stream = streamNames(namespace).events;
  const durable = durableName(consumer);
  const log = { consumer, filter };
  // The subject check in validEvent pins each event's type to the filter.
  const apply = async (events: DomainEvent[], tx: PoolClient): Promise<void> => {
    if (options.batchHandler) return options.batchHandler(events as EventMatching<F>[], tx);
    for (const event of events) await options.handler(event as EventMatching<F>, tx);
  };

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
    await withClusterRetry(() => js.consumers.get(stream, durable))
  ).consume({ max_messages: 16, expires: PULL_EXPIRES_MS });

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

  /** The message's event, or undefined once it was dead-lettered as invalid. */
  const validEvent = async (msg: JsMsg): Promise<DomainEvent | undefined> => {
    let event: DomainEvent;
    try {
      event = parseEvent(msg.json());
    } catch (error) {
      // Poison input never becomes valid by retrying.
      await deadLetter(msg, `invalid event: ${errorMessage(error)}`);
      return undefined;
    }
    if (msg.subject !== eventSubject(namespace, event.type)) {
      await deadLetter(msg, `invalid event: type ${event.type} published on ${msg.subject}`);
      return undefined;
    }
    return event;
  };

  const handleOne = async (msg: JsMsg, event: DomainEvent): Promise<void> => {
    try {
      await withTransaction(pool, async (tx) => {
        const { rowCount } = await tx.query(
          'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [consumer, event.id],
        );
        if (rowCount === 0) return;
        await apply([event], tx);
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

  /**
   * Events that queued up while the consumer was busy commit in one transaction: one BEGIN,
   * one processed-event insert and one COMMIT for all of them instead of one each (issue 11:
   * round trips were most of a paid webhook's cost). When anything in the batch fails,
   * including a wait for a row lock another batch holds, nothing of it stays and each event
   * gets its own transaction as before, which finds the culprit and deals with it alone.
   */
  const handleBatch = async (batch: JsMsg[]): Promise<void> => {
    const valid: { msg: JsMsg; event: DomainEvent }[] = [];
    for (const msg of batch) {
      const event = await validEvent(msg);
      if (event) valid.push({ msg, event });
    }
    if (valid.length > 1) {
      try {
        await withTransaction(
          pool,
          async (tx) => {
            const { rows } = await tx.query<{ event_id: string }>(
              `INSERT INTO processed_events (consumer, event_id) SELECT $1, unnest($2::uuid[])
             ON CONFLICT DO NOTHING RETURNING event_id`,
              [consumer, valid.map(({ event }) => event.id)],
            );
            const fresh = new Set(rows.map((row) => row.event_id));
            // A copy of an event already in the batch (a redelivery) finds its id taken from the set.
            const events = valid
              .map(({ event }) => event)
              .filter((event) => fresh.delete(event.id.toLowerCase()));
            if (events.length > 0) await apply(events, tx);
          },
          { lockTimeout: BATCH_LOCK_TIMEOUT },
        );
        for (const { msg } of valid) msg.ack();
        return;
      } catch (error) {
        logger.debug(
          { ...log, events: valid.length, err: errorMessage(error) },
          'batch rolled back; handling its events one by one',
        );
      }
    }
    for (const { msg, event } of valid) await handleOne(msg, event);
  };

  // The reader queues what the server sends; the worker takes everything queued at once.
  let stopping = false;
  let reading = true;
  const queued: JsMsg[] = [];
  let arrived: (() => void) | undefined;
  let drained: (() => void) | undefined;
  const reader = (async () => {
    try {
      for await (const msg of messages) {
        // Buffered but not started: hand it straight back so another replica need not wait out ack_wait.
        if (stopping) {
          msg.nak();
          continue;
        }
        queued.push(msg);
        arrived?.();
        if (queued.length >= BATCH_LIMIT) await new Promise<void>((resolve) => (drained = resolve));
      }
    } finally {
      reading = false;
      arrived?.();
    }
  })();
  const worker = (async () => {
    for (;;) {
      if (queued.length === 0) {
        if (!reading) return;
        await new Promise<void>((resolve) => (arrived = resolve));
        arrived = undefined;
        continue;
      }
      const batch = queued.splice(0, BATCH_LIMIT);
      drained?.();
      drained = undefined;
      try {
        if (stopping) for (const msg of batch) msg.nak();
        else await handleBatch(batch);
      } catch (error) {
        // An ack or nak that could not be sent (connection closing): the server redelivers after ack_wait.
        logger.error({ ...log, err: errorMessage(error) }, 'message left unacknowledged');
      }
    }
  })();
  for (const [part, loop] of [
    ['reader', reader],
    ['worker', worker],
  ] as const)
    loop.catch((error: unknown) =>
      logger.error({ ...log, part, err: errorMessage(error) }, 'consumer stopped unexpectedly'),
    );

  return {
    async stop() {
      stopping = true;
      await messages.close();
      // The last pull request stays open on the server until it expires; once the server has
      // read our unsubscribe (a flush is the round trip that proves it) it drops that request
      // instead of handing a new event to a reader that is gone, where it would wait out
      // ack_wait. An event the server sent in the moment between the two still waits it out.
      await nc.flush().catch(() => undefined);
      await reader.catch(() => undefined);
      await worker.catch(() => undefined);
    },
  };
}

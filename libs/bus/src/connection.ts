import type { CommandName, CommandReply, CommandRequest, DomainEvent } from '@lockdrop/contracts';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers } from '@nats-io/transport-node';
import { requestCommand, serveCommand } from './commands.js';
import { busHeaders } from './headers.js';
import {
  natsAuthFromEnv,
  serverList,
  streamReplicasFromEnv,
  type NatsAuthOptions,
} from './servers.js';
import { busRoles, isServiceRole, type BusRole } from './permissions.js';
import { silentLogger, type Logger } from './logger.js';
import { assertNamespace, eventSubject, streamNames, type EventFilter } from './naming.js';
import { ensureStreams } from './streams.js';
import { subscribe, type SubscribeOptions, type Subscription } from './subscription.js';
import { watchEvents, type Watch, type WatchOptions } from './watch.js';

export interface BusOptions {
  /** One NATS URL, or several comma-separated (a cluster's seeds; the client learns the rest). */
  url: string;
  /** Prefix of every stream and subject: `lockdrop` in production, a random one per test file. */
  namespace: string;
  /** Connection name shown by the NATS server's monitoring, e.g. the service name. */
  name: string;
  logger?: Logger;
  /** Told about every dead letter (the service counts them on /metrics). */
  onDeadLetter?: (consumer: string) => void;
  /**
   * JetStream replicas of the namespace's streams and consumers (3 on a three-node cluster).
   * Default: BUS_STREAM_REPLICAS from the environment, else 1.
   */
  replicas?: number;
  /**
   * Whether this process creates and updates the namespace's streams (default: yes). The gateway
   * does not: it only publishes view counts and watches, and its NATS user may touch no stream.
   */
  manageStreams?: boolean;
  /** Who to log in as; default NATS_USER and NATS_PASSWORD from the environment (none: no login). */
  auth?: NatsAuthOptions;
}

export interface Bus {
  readonly namespace: string;
  /** Publishes straight to JetStream. Services publish through the outbox; the relay calls this. */
  publish(event: DomainEvent): Promise<void>;
  /** A durable, exactly-once-effect consumer; the handler's event is typed by `filter`. */
  subscribe<F extends EventFilter>(options: SubscribeOptions<F>): Promise<Subscription>;
  /** Live events for a cache in every replica: no durability, no replay (see watch.ts). */
  watch(options: WatchOptions): Watch;
  /**
   * Asks the service that answers `command` and waits for its reply (see libs/contracts
   * commands); rejects with CommandFailedError when none comes within `timeoutMs`.
   */
  request<C extends CommandName>(
    command: C,
    request: CommandRequest<C>,
    options?: { timeoutMs?: number },
  ): Promise<CommandReply<C>>;
  /** Answers `command` until the bus closes (one replica per request). */
  serve<C extends CommandName>(
    command: C,
    handler: (request: CommandRequest<C>) => Promise<CommandReply<C>>,
  ): void;
  /** For readiness probes: rejects when the server does not answer. */
  ping(): Promise<void>;
  /** Stops every subscription (letting in-flight messages finish), then drains the connection. */
  close(): Promise<void>;
}

const PING_TIMEOUT_MS = 2_000;

/** Connects, makes sure the namespace's streams exist, and returns the bus. */
export async function connectBus({
  url,
  namespace,
  name,
  logger = silentLogger,
  onDeadLetter,
  replicas = streamReplicasFromEnv(),
  manageStreams = true,
  auth = natsAuthFromEnv(),
}: BusOptions): Promise<Bus> {
  assertNamespace(namespace);
  const allowed = allowedBy(name);
  // Reconnect forever: a NATS restart must not leave a running service deaf; readiness reports the outage.
  const nc = await connect({
    servers: serverList(url),
    name,
    maxReconnectAttempts: -1,
    ...auth,
  });
  try {
    // Without stream rights (the gateway) there is no `$JS.API.INFO` to check either.
    const jsm = await jetstreamManager(nc, { checkAPI: manageStreams });
    if (manageStreams) await ensureStreams(jsm, namespace, { replicas });
    const js = jetstream(nc);
    const subscriptions = new Set<Subscription>();
    const watches = new Set<Watch>();

    return {
      namespace,
      async publish(event) {
        allowed('publish event', event.type, allowed.role?.publishes.includes(event.type));
        const hdrs = headers();
        hdrs.set(busHeaders.correlationId, event.correlationId);
        // The event id as Nats-Msg-Id: JetStream drops a re-publish of the same event in its duplicate window.
        // The ack comes once the stream has the message: on a replicated stream, once a majority
        // of its replicas stored it, so an acked event survives losing the stream's leader. A
        // publish that finds no leader (an election) rejects, and the outbox relay sends it again.
        await js.publish(eventSubject(namespace, event.type), JSON.stringify(event), {
          msgID: event.id,
          headers: hdrs,
          expect: { streamName: streamNames(namespace).events },
        });
      },
      request(command, request, options) {
        allowed('request', command, allowed.role?.requests.includes(command));
        return requestCommand(nc, namespace, command, request, options?.timeoutMs ?? 5_000);
      },
      serve(command, handler) {
        allowed('serve', command, allowed.role?.serves.includes(command));
        serveCommand(nc, namespace, command, handler, logger);
      },
      async subscribe(options) {
        allowed(
          'consume',
          `${options.consumer} (${options.filter})`,
          allowed.role?.consumers[options.consumer] === options.filter,
        );
        const subscription = await subscribe(
          { nc, jsm, js, namespace, logger, onDeadLetter },
          options,
        );
        const tracked: Subscription = {
          async stop() {
            subscriptions.delete(tracked);
            await subscription.stop();
          },
        };
        subscriptions.add(tracked);
        return tracked;
      },
      watch(options) {
        for (const filter of options.filters)
          allowed('watch', filter, allowed.role?.watches.includes(filter));
        const watch = watchEvents(nc, namespace, logger, options);
        watches.add(watch);
        return watch;
      },
      async ping() {
        if (nc.isClosed()) throw new Error('NATS connection is closed');
        let timeout: NodeJS.Timeout | undefined;
        // While reconnecting, a flush waits for the reconnect; a probe needs an answer now.
        const expired = new Promise<never>((_, reject) => {
          timeout = setTimeout(
            () => reject(new Error('NATS did not answer a ping')),
            PING_TIMEOUT_MS,
          );
        });
        try {
          await Promise.race([nc.flush(), expired]);
        } finally {
          clearTimeout(timeout);
        }
      },
      async close() {
        for (const watch of watches) watch.stop();
        await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
        if (!nc.isClosed()) await nc.drain();
      },
    };
  } catch (error) {
    await nc.close();
    throw error;
  }
}

/**
 * Holds a service's bus (connected as `name`) to its row of the permissions table, whatever
 * NATS it reaches: without credentials (development, `npm test`) nothing else would notice a
 * consumer, command or event the table lacks until production's NATS refused it. Processes that
 * are not a service (tests, tools) are not held to a row.
 */
function allowedBy(name: string) {
  const role: BusRole | undefined = isServiceRole(name) ? busRoles[name] : undefined;
  const check = (what: string, subject: string, listed: boolean | undefined) => {
    if (role && !listed)
      throw new Error(
        `${name} may not ${what} ${subject}: add it to ${name}'s row in libs/bus/src/permissions.ts (the NATS permissions are built from it)`,
      );
  };
  return Object.assign(check, { role });
}

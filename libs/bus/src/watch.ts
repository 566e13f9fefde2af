import { parseEvent, type DomainEvent } from '@lockdrop/contracts';
import type { NatsConnection, Subscription as NatsSubscription } from '@nats-io/transport-node';
import { errorMessage, type Logger } from './logger.js';
import { filterSubject, type EventFilter } from './naming.js';

export interface WatchOptions {
  filters: EventFilter[];
  /** Every matching event as it is published, in every process that watches (no replay). */
  onEvent: (event: DomainEvent) => void;
  /**
   * The connection dropped: events published meanwhile were missed. Called on the disconnect
   * and again on the reconnect, so a cache can drop what it holds and refill.
   */
  onGap: () => void;
}

export interface Watch {
  /** False while disconnected: whatever the watcher derives from events may be behind. */
  readonly live: boolean;
  stop(): void;
}

/**
 * A plain NATS subscription to event subjects, for caches (the gateway's storefront): each
 * replica sees every event at once and none is stored for it. JetStream publishes are ordinary
 * subject messages, so this sees what durable consumers see, minus their redelivery; durable
 * effects belong in `subscribe`, never here.
 */
export function watchEvents(
  nc: NatsConnection,
  namespace: string,
  logger: Logger,
  { filters, onEvent, onGap }: WatchOptions,
): Watch {
  let live = !nc.isClosed();
  const subscriptions: NatsSubscription[] = filters.map((filter) =>
    nc.subscribe(filterSubject(namespace, filter), {
      callback: (error, message) => {
        if (error) {
          logger.warn({ err: errorMessage(error) }, 'event watch failed');
          return;
        }
        try {
          onEvent(parseEvent(message.json()));
        } catch (parseError) {
          logger.warn({ err: errorMessage(parseError) }, 'event watch skipped an unreadable event');
        }
      },
    }),
  );
  let stopped = false;
  void (async () => {
    for await (const status of nc.status()) {
      if (stopped) return;
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        live = status.type === 'reconnect';
        onGap();
      }
    }
  })();
  return {
    get live() {
      return live && !nc.isClosed();
    },
    stop() {
      stopped = true;
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}

import { JetStreamApiError, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { withClusterRetry } from './jetstream-api.js';
import { streamNames } from './naming.js';
import { EVENT_STREAM_MAX_AGE_DAYS } from './retention.js';

// JSStreamNameExistErr: the stream exists with another configuration (an older deploy).
const STREAM_EXISTS_WITH_OTHER_CONFIG = 10058;

/** How long JetStream remembers a Nats-Msg-Id: a relay that re-publishes within it causes no duplicate. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;

function streamConfigs(
  namespace: string,
  replicas: number,
): Array<Partial<StreamConfig> & { name: string }> {
  const names = streamNames(namespace);
  return [
    {
      name: names.events,
      num_replicas: replicas,
      subjects: [`${namespace}.events.>`],
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      max_age: nanos(EVENT_STREAM_MAX_AGE_DAYS * 24 * 3_600_000),
    },
    {
      name: names.deadLetters,
      subjects: [`${namespace}.dlq.>`],
      num_replicas: replicas,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    },
  ];
}

/**
 * Creates the namespace's streams, or brings an existing one to the current configuration.
 * `replicas` is how many servers of a cluster keep each stream (a raft group: it survives losing
 * a minority); raising it on an existing stream makes the cluster copy the stream to more servers.
 * Consumers take the stream's replica count (their `num_replicas` is left at 0).
 * Every replica calls this at start: adding an identical stream twice succeeds, so two
 * processes racing here both end up with the same streams and neither fails.
 */
export async function ensureStreams(
  jsm: JetStreamManager,
  namespace: string,
  { replicas = 1 }: { replicas?: number } = {},
): Promise<void> {
  for (const config of streamConfigs(namespace, replicas)) {
    try {
      await withClusterRetry(() => jsm.streams.add(config));
    } catch (error) {
      if (!(error instanceof JetStreamApiError) || error.code !== STREAM_EXISTS_WITH_OTHER_CONFIG)
        throw error;
      await withClusterRetry(() => jsm.streams.update(config.name, config));
    }
  }
}

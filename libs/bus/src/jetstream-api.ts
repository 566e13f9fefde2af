import { JetStreamApiError } from '@nats-io/jetstream';

// JSClusterNotAvailErr / JSClusterNotLeaderErr / JSClusterNoPeersErr and the like: the cluster's
// meta layer is electing a leader or too busy to answer; asking again succeeds.
const CLUSTER_BUSY = /temporarily unavailable|no suitable peers|not leader|insufficient resources/i;

/** Whether a JetStream API call failed because a clustered server was busy, not because it refused. */
export function isClusterBusy(error: unknown): boolean {
  const name = (error as { name?: unknown })?.name;
  if (name === 'TimeoutError' || name === 'NoRespondersError') return true;
  if (error instanceof JetStreamApiError)
    return error.status === 503 || CLUSTER_BUSY.test(error.message);
  return false;
}

/**
 * Runs a JetStream API call (creating a stream or a consumer), asking again while the cluster
 * is busy: on a three-node cluster every replica of every service creates its R3 consumers at
 * start, and the meta leader answering them all can take longer than a request's timeout (seen
 * in tests/chaos/nats-cluster.chaos.ts, where analytics then crashed at start-up).
 */
export async function withClusterRetry<T>(call: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!isClusterBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(250 * 2 ** (attempt - 1), 2_000)),
      );
    }
  }
}

import { redisConnectionOptions, type RedisEnv } from '@lockdrop/config';
import { Redis } from 'ioredis';

/**
 * BullMQ workers block on Redis; they need `maxRetriesPerRequest: null` (stack notes #8).
 * REDIS_URL alone, or the master that REDIS_SENTINELS name (REDIS_SENTINEL_NAME): after a
 * failover ioredis asks the Sentinels again and BullMQ carries on against the new master.
 */
export function createQueueConnection(config: RedisEnv): Redis {
  return new Redis({
    ...redisConnectionOptions(config),
    maxRetriesPerRequest: null,
    lazyConnect: true,
  });
}

/**
 * Resolves once Redis answers. A worker may start before Redis does (a cluster coming up,
 * Redis restarting): ioredis keeps reconnecting on its own, so start-up waits for it, saying
 * so, rather than dying on the first refused connection.
 */
export async function untilRedisReady(
  redis: Redis,
  logger: { warn(object: object, message: string): void },
): Promise<void> {
  if (redis.status === 'ready') return;
  const ready = new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  redis
    .connect()
    .catch((error: Error) =>
      logger.warn({ err: error }, 'Redis not reachable yet; waiting for it before starting jobs'),
    );
  await ready;
}

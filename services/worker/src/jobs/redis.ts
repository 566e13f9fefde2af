import { Redis } from 'ioredis';

/** BullMQ workers block on Redis; they need `maxRetriesPerRequest: null` (stack notes #8). */
export function createQueueConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
}

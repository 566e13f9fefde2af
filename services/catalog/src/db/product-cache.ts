import type { Pool, PoolClient } from '@lockdrop/db';
import type { Product } from '../domain/product.js';
import { findProduct, PRODUCT_CHANNEL } from './products.repo.js';

export interface ProductCache {
  /** The live product as `findProduct` would answer, from memory while nothing changed it. */
  get(id: string): Promise<Product | null>;
  /** Drops `id` now (after this process committed a write; the notification follows anyway). */
  forget(id: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Public product reads come from memory (issue 11: a storefront link opened by thousands at
 * once). Every write notifies `catalog_products` in its transaction; each process LISTENs and
 * drops the product at commit, so an edited, unpublished or deleted product is never served
 * stale beyond the notification's delay (milliseconds). While the LISTEN connection is down
 * nothing is cached at all, and `maxAgeMs` bounds any entry regardless.
 */
export function createProductCache({
  pool,
  logger,
  maxAgeMs = 30_000,
  maxEntries = 10_000,
  reconnectMs = 1_000,
}: {
  pool: Pool;
  logger: Logger;
  maxAgeMs?: number;
  maxEntries?: number;
  reconnectMs?: number;
}): ProductCache {
  const entries = new Map<string, { product: Product | null; at: number }>();
  /** Bumped by every notification: a load that overlapped one is not kept (it may be older). */
  let epoch = 0;
  let listener: PoolClient | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const forgetAll = () => {
    epoch += 1;
    entries.clear();
  };

  async function listen(): Promise<void> {
    if (stopped) return;
    try {
      const client = await pool.connect();
      client.on('notification', (message) => {
        epoch += 1;
        if (message.payload) entries.delete(message.payload);
      });
      client.on('error', (error) => {
        logger.warn({ err: error }, 'product cache lost its LISTEN connection; caching paused');
        listener = null;
        forgetAll();
        client.release(true);
        scheduleListen();
      });
      await client.query(`LISTEN ${PRODUCT_CHANNEL}`);
      // Anything cached before this point may have missed a notification.
      forgetAll();
      listener = client;
    } catch (error) {
      logger.warn({ err: error }, 'product cache cannot LISTEN; reading through');
      scheduleListen();
    }
  }

  function scheduleListen() {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, reconnectMs);
  }

  return {
    async get(id) {
      if (!listener) return findProduct(pool, id);
      const now = Date.now();
      const cached = entries.get(id);
      if (cached && now - cached.at < maxAgeMs) return cached.product;
      const startedAt = epoch;
      const product = await findProduct(pool, id);
      if (listener && startedAt === epoch) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(id, { product, at: now });
      }
      return product;
    },
    forget(id) {
      epoch += 1;
      entries.delete(id);
    },
    start: listen,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const client = listener;
      listener = null;
      forgetAll();
      if (client) {
        await client.query(`UNLISTEN ${PRODUCT_CHANNEL}`).catch(() => undefined);
        client.release();
      }
    },
  };
}

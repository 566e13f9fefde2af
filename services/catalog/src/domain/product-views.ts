import { createHmac } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { insertViewOnce } from '../db/product-views.repo.js';

/** A public read of a product by someone other than its owner. */
export interface Visit {
  /** Opaque, keyed hash: analytics can count visitors but never recover who they are. */
  visitorId: string;
  referrer: string | null;
  correlationId: string;
}

/** The visitor id analytics sees, derived from the first-party visitor key (cookie). */
export function visitorIdOf(visitorKey: string, secret: string): string {
  return createHmac('sha256', secret).update(`visitor:${visitorKey}`).digest('hex');
}

/**
 * A new visitor key for a browser without the cookie, derived from IP and user agent rather than
 * random: the first request (before the cookie exists) and the following ones (with it) then
 * count as the same visitor, and a client that never keeps cookies still counts once a day.
 */
export function visitorKeyFor(ip: string, userAgent: string, secret: string): string {
  return createHmac('sha256', secret)
    .update(`ip-ua:${ip}\n${userAgent}`)
    .digest('hex')
    .slice(0, 32);
}

/** Visitors whose view of a product today is already stored, per process (bounded). */
const MAX_REMEMBERED_VIEWS = 200_000;

/**
 * Records each view and its product.viewed event once per product, visitor and UTC day (the
 * table's key decides). A view this process already stored today skips the database: a
 * visitor reloading a page, or a crowd's repeat reads, cost no transaction.
 */
export function createViewCounter(pool: Pool) {
  let day = '';
  const stored = new Set<string>();
  return {
    async record(productId: string, visit: Visit, now: Date): Promise<void> {
      const today = now.toISOString().slice(0, 10);
      if (today !== day) {
        day = today;
        stored.clear();
      }
      const key = `${productId}|${visit.visitorId}`;
      if (stored.has(key)) return;
      await recordView(pool, productId, visit, now);
      if (stored.size >= MAX_REMEMBERED_VIEWS) stored.clear();
      stored.add(key);
    },
  };
}

/** Records the view and its product.viewed event once per product, visitor and UTC day. */
export async function recordView(
  pool: Pool,
  productId: string,
  visit: Visit,
  now: Date,
): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  await withTransaction(pool, async (tx) => {
    const first = await insertViewOnce(tx, {
      productId,
      visitorId: visit.visitorId,
      day,
      referrer: visit.referrer,
      viewedAt: now,
    });
    if (!first) return;
    await enqueueEvent(
      tx,
      createEvent(
        'product.viewed',
        { productId, visitorId: visit.visitorId, day, referrer: visit.referrer },
        { correlationId: visit.correlationId, occurredAt: now },
      ),
    );
  });
}

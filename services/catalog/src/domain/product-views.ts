import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type EventData } from '@lockdrop/contracts';
import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import {
  insertPublishedViewsOnce,
  insertViewOnce,
  type ProductView,
} from '../db/product-views.repo.js';

/** A read of a published product by someone other than its owner. */
export interface Visit {
  /** The gateway's keyed hash of the visitor: analytics can count visitors, never recover them. */
  visitorId: string;
  referrer: string | null;
  correlationId: string;
}

/** Visitors whose view of a product today is already stored, per process (bounded). */
const MAX_REMEMBERED_VIEWS = 200_000;

/**
 * Records each view that catalog answers itself (signed-in readers; the gateway answers the
 * anonymous crowd and sends its views in batches, see `recordStorefrontViews`). A view this
 * process already stored today skips the database.
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
      await withTransaction(pool, async (tx) => {
        const view = {
          productId,
          visitorId: visit.visitorId,
          day: today,
          referrer: visit.referrer,
          viewedAt: now,
        };
        if (await insertViewOnce(tx, view)) await enqueueViewed(tx, view, visit.correlationId);
      });
      if (stored.size >= MAX_REMEMBERED_VIEWS) stored.clear();
      stored.add(key);
    },
  };
}

/**
 * The views in one gateway batch, inside the consumer's transaction: each stored once per
 * product, visitor and UTC day (the table's key decides), each first one announced as
 * `product.viewed`. Views of products that are not (or no longer) published are not counted.
 */
export async function recordStorefrontViews(
  tx: Queryable,
  { views }: EventData<'storefront.products_viewed'>,
): Promise<number> {
  const requestIds = new Map(
    views.map((view) => [`${view.productId}|${view.visitorId}`, view.requestId]),
  );
  const first = await insertPublishedViewsOnce(
    tx,
    views.map((view) => ({
      productId: view.productId,
      visitorId: view.visitorId,
      referrer: view.referrer,
      viewedAt: new Date(view.viewedAt),
    })),
  );
  for (const view of first)
    await enqueueViewed(tx, view, requestIds.get(`${view.productId}|${view.visitorId}`)!);
  return first.length;
}

function enqueueViewed(tx: Queryable, view: ProductView, correlationId: string): Promise<void> {
  return enqueueEvent(
    tx,
    createEvent(
      'product.viewed',
      {
        productId: view.productId,
        visitorId: view.visitorId,
        day: view.day,
        referrer: view.referrer,
      },
      { correlationId, occurredAt: view.viewedAt },
    ),
  );
}

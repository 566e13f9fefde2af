import type { Queryable } from '@lockdrop/db';

export interface ProductView {
  productId: string;
  visitorId: string;
  /** UTC calendar day, YYYY-MM-DD. */
  day: string;
  referrer: string | null;
  viewedAt: Date;
}

/** true when this is the visitor's first view of the product that day. */
export async function insertViewOnce(db: Queryable, view: ProductView): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO product_views (product_id, visitor_id, day, referrer, viewed_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING`,
    [view.productId, view.visitorId, view.day, view.referrer, view.viewedAt],
  );
  return rowCount === 1;
}

/**
 * Stores each view of a published product once per product, visitor and UTC day, in one
 * statement; returns the views that were first that day (the others already existed, or the
 * product is no longer published).
 */
export async function insertPublishedViewsOnce(
  db: Queryable,
  views: Array<Omit<ProductView, 'day'>>,
): Promise<ProductView[]> {
  if (views.length === 0) return [];
  const { rows } = await db.query<{
    product_id: string;
    visitor_id: string;
    day: string;
    referrer: string | null;
    viewed_at: Date;
  }>(
    `INSERT INTO product_views (product_id, visitor_id, day, referrer, viewed_at)
     SELECT v.product_id, v.visitor_id, (v.viewed_at AT TIME ZONE 'UTC')::date, v.referrer, v.viewed_at
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[])
              AS v (product_id, visitor_id, referrer, viewed_at)
       JOIN products p ON p.id = v.product_id AND p.status = 'published'
     ON CONFLICT DO NOTHING
     RETURNING product_id, visitor_id, to_char(day, 'YYYY-MM-DD') AS day, referrer, viewed_at`,
    [
      views.map((view) => view.productId),
      views.map((view) => view.visitorId),
      views.map((view) => view.referrer),
      views.map((view) => view.viewedAt),
    ],
  );
  return rows.map((row) => ({
    productId: row.product_id,
    visitorId: row.visitor_id,
    day: row.day,
    referrer: row.referrer,
    viewedAt: row.viewed_at,
  }));
}

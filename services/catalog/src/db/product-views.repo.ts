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

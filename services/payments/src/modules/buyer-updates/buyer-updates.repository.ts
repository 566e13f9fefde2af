import type { Queryable } from '@lockdrop/db';
import { confirmedPurchase } from '../sales/index.js';

/** Where one buyer address stands with one seller's update e-mails. */
export interface BuyerUpdatesSubscription {
  sellerId: string;
  buyerEmail: string;
  token: string;
  productTitle: string;
  unsubscribedAt: Date | null;
}

const COLUMNS = `seller_id AS "sellerId", buyer_email AS "buyerEmail", token,
  product_title AS "productTitle", unsubscribed_at AS "unsubscribedAt"`;

/**
 * Who bought `productId` and still has it: a paid purchase not refunded, and for a product
 * subscription one that has not ended. Only confirmed buyers (issue 30): a free claim counts once
 * its address proved itself, so "Tell my buyers" never mails an address someone merely typed.
 * One row per address (lower-cased).
 */
export async function currentBuyersOf(db: Queryable, productId: string): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT DISTINCT lower(p.buyer_email) AS email
     FROM purchases p LEFT JOIN subscriptions s ON s.id = p.subscription_id
     WHERE p.product_id = $1 AND p.status = 'paid' AND ${confirmedPurchase('p')}
       AND (p.subscription_id IS NULL OR s.status <> 'expired')
     ORDER BY 1`,
    [productId],
  );
  return rows.map((row) => row.email);
}

/**
 * The subscription row of each address with this seller, created with `newTokens[i]` for an
 * address that has none yet; an existing row keeps its token and only learns the product title.
 */
export async function subscriptionsFor(
  db: Queryable,
  sellerId: string,
  productTitle: string,
  emails: string[],
  newTokens: string[],
): Promise<BuyerUpdatesSubscription[]> {
  const { rows } = await db.query<BuyerUpdatesSubscription>(
    `INSERT INTO buyer_update_subscriptions AS b (seller_id, buyer_email, token, product_title)
     SELECT $1, email, token, $2 FROM unnest($3::text[], $4::text[]) AS queued (email, token)
     ON CONFLICT (seller_id, buyer_email)
       DO UPDATE SET product_title = excluded.product_title, updated_at = now()
     RETURNING ${COLUMNS}`,
    [sellerId, productTitle, emails, newTokens],
  );
  return rows;
}

export async function findSubscriptionByToken(
  db: Queryable,
  token: string,
): Promise<BuyerUpdatesSubscription | null> {
  const { rows } = await db.query<BuyerUpdatesSubscription>(
    `SELECT ${COLUMNS} FROM buyer_update_subscriptions WHERE token = $1`,
    [token],
  );
  return rows[0] ?? null;
}

/** Unsubscribes (keeping the first time) or subscribes again; null for an unknown token. */
export async function setSubscribed(
  db: Queryable,
  token: string,
  subscribed: boolean,
  at: Date,
): Promise<BuyerUpdatesSubscription | null> {
  const { rows } = await db.query<BuyerUpdatesSubscription>(
    `UPDATE buyer_update_subscriptions
     SET unsubscribed_at = CASE WHEN $2 THEN NULL ELSE COALESCE(unsubscribed_at, $3) END,
         updated_at = $3
     WHERE token = $1
     RETURNING ${COLUMNS}`,
    [token, subscribed, at],
  );
  return rows[0] ?? null;
}

import { z } from 'zod';

/**
 * The unsubscribe link of a product-update e-mail (payments). The token stands for one buyer
 * e-mail address and one seller: it stops (or restarts) that seller's update e-mails to it.
 *
 * - `GET /api/buyer-updates/:token`: where the address stands;
 * - `PUT /api/buyer-updates/:token` with `{ subscribed }`: the unsubscribe page's buttons;
 * - `POST /api/buyer-updates/:token/unsubscribe`: RFC 8058 one-click, what mail apps call from
 *   the `List-Unsubscribe` header (any body, no cookies).
 */
export const buyerUpdatesSubscriptionSchema = z.object({
  email: z.string(),
  /** Whose updates these are: the product of the latest update e-mail from that seller. */
  productTitle: z.string(),
  subscribed: z.boolean(),
});
export type BuyerUpdatesSubscription = z.infer<typeof buyerUpdatesSubscriptionSchema>;

export const buyerUpdatesChangeSchema = z.object({ subscribed: z.boolean() });

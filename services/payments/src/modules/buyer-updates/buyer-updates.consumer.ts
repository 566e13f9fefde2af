import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { tellBuyersAboutNewFiles, type BuyerUpdatesDeps } from './buyer-updates.js';

/**
 * "Tell my buyers" (catalog's product.files_added with notifyBuyers): the e-mails are queued in
 * the transaction that records the event as processed, so a redelivery queues nothing twice.
 */
export function subscribeToBuyerUpdates(
  bus: Bus,
  deps: Pick<BuyerUpdatesDeps, 'publicUrl' | 'bulkMailsPerMinute'> & { pool: Pool },
): Promise<Subscription> {
  return bus.subscribe({
    consumer: 'payments.products-files-added',
    filter: 'product.files_added',
    pool: deps.pool,
    handler: async (event, tx) => {
      if (!event.data.notifyBuyers) return;
      // Bulk mail is due over time anyway: the relay's poll sends it, no wake-up needed.
      await tellBuyersAboutNewFiles(tx, event.data, deps);
    },
  });
}

import type { Bus, Subscription } from '@lockdrop/bus';
import type { Pool } from '@lockdrop/db';
import { forgetSellerName, saveSellerName } from '../db/brands.repo.js';

/**
 * Keeps seller_names current from identity's events, for the seller's name on their product
 * pages (issue 29): a sign-up and every profile change name them, a deleted account is
 * forgotten. Each event is applied once; an older name never replaces a newer one.
 */
export async function subscribeToSellerNames(bus: Bus, pool: Pool): Promise<Subscription[]> {
  return Promise.all([
    bus.subscribe({
      consumer: 'catalog.users',
      filter: 'user.*',
      pool,
      async handler(event, tx) {
        if (event.type === 'user.signed_up')
          await saveSellerName(tx, event.data.userId, event.data.fullName, event.occurredAt);
        else if (event.type === 'user.deleted') await forgetSellerName(tx, event.data.userId);
      },
    }),
    bus.subscribe({
      consumer: 'catalog.profiles',
      filter: 'profile.updated',
      pool,
      async handler(event, tx) {
        if (event.type !== 'profile.updated') return;
        await saveSellerName(tx, event.data.userId, event.data.fullName, event.occurredAt);
      },
    }),
  ]);
}

import type { Migration } from '@lockdrop/db';

/**
 * Payout details (account numbers, e-mails) move to payments, which keeps them encrypted; the
 * profile keeps only which method the seller chose. Details typed before this change are not
 * copied (services never write each other's tables): the seller is asked to confirm them again.
 */
export const payoutMethodOnly: Migration = {
  id: '0002_payout_method_only',
  sql: `
    ALTER TABLE profiles ADD COLUMN payout_method text
      CHECK (payout_method IN ('bank', 'payoneer', 'wise'));
    UPDATE profiles SET payout_method = payout_details->>'method'
      WHERE payout_details->>'method' IN ('bank', 'payoneer', 'wise');
    ALTER TABLE profiles DROP COLUMN payout_details;
  `,
};

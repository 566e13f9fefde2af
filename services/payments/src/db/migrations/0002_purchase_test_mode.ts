import type { Migration } from '@lockdrop/db';

/** Whether a purchase moved real money is a fact of the moment it was paid, so it is stored with it. */
export const purchaseTestMode: Migration = {
  id: '0002_purchase_test_mode',
  sql: `
    ALTER TABLE purchases ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
    UPDATE purchases SET test_mode = true WHERE provider = 'sandbox';
  `,
};

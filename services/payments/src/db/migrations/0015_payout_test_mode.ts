import type { Migration } from '@lockdrop/db';

/**
 * Issue 30, item 5: test-mode earnings (purchases with `test_mode`) are paid out apart from live
 * ones, in payouts marked `test_mode` that the worker sends only through the sandbox. A run may
 * then make two payouts per seller and currency, one of each mode. Payouts made before this
 * migration are taken as live (their mode was never recorded).
 */
export const payoutTestMode: Migration = {
  id: '0015_payout_test_mode',
  sql: `
    ALTER TABLE payouts ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
    ALTER TABLE payouts DROP CONSTRAINT payouts_run_id_seller_id_source_currency_key;
    ALTER TABLE payouts ADD CONSTRAINT payouts_run_seller_currency_mode_key
      UNIQUE (run_id, seller_id, source_currency, test_mode);
  `,
};

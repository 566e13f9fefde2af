import type { Migration } from '@lockdrop/db';

/**
 * Issue 29, item 6: the seller is e-mailed "You made a sale" unless they turn it off. The seller's
 * address comes from identity's `profile.updated` (kept beside the plan, with its own version so a
 * later `plan.changed` never hides it); the setting is payments' own, one row per seller who
 * changed it (no row means on).
 */
export const saleEmails: Migration = {
  id: '0050_sale_emails',
  sql: `
    ALTER TABLE sellers ADD COLUMN email text;
    ALTER TABLE sellers ADD COLUMN email_occurred_at timestamptz;
    CREATE TABLE seller_mail_settings (
      seller_id uuid PRIMARY KEY,
      sale_emails boolean NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};

import type { Migration } from '@lockdrop/db';

/**
 * Issue 27: an endpoint hears one mode's money — `test` endpoints only test-mode sales,
 * subscriptions and payouts, `live` ones only real ones (products reach both). Endpoints made
 * before modes existed are live, as a dashboard endpoint is unless the seller picks test.
 */
export const webhookEndpointModes: Migration = {
  id: '0050_webhook_endpoint_modes',
  sql: `
    ALTER TABLE webhook_endpoints
      ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'));
    DROP INDEX webhook_endpoints_seller_idx;
    CREATE INDEX webhook_endpoints_seller_idx ON webhook_endpoints (seller_id, mode);
  `,
};

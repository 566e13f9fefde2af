import type { Migration } from '@lockdrop/db';

/**
 * Outgoing webhooks (ARCHITECTURE §3a): sellers' endpoints and the log of every delivery. A
 * delivery row is the job's truth (BullMQ only schedules it); its id is the `webhook-id` header,
 * the same on every retry and redelivery.
 */
export const webhooks: Migration = {
  id: '0030_webhooks',
  sql: `
    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY,
      seller_id uuid NOT NULL,
      -- Where the worker writes when it disables the endpoint: the owner's address at their last change.
      seller_email text NOT NULL,
      url text NOT NULL,
      description text NOT NULL DEFAULT '',
      events text[] NOT NULL CHECK (cardinality(events) > 0),
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      -- whsec_… sealed with WEBHOOK_ENCRYPTION_KEYS; the previous one signs too until it expires.
      secret_sealed text NOT NULL,
      previous_secret_sealed text,
      previous_secret_expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_endpoints_seller_idx ON webhook_endpoints (seller_id);

    CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      -- Creation order: deliveries about one resource reach an endpoint in this order.
      seq bigserial NOT NULL UNIQUE,
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      seller_id uuid NOT NULL,
      -- The bus event it came from (null for a test event): one delivery per endpoint and event.
      event_id uuid,
      event_type text NOT NULL,
      resource_id text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      -- Bumped by each redelivery: the BullMQ job id of the current run is <id>.r<redeliveries>.
      redeliveries integer NOT NULL DEFAULT 0,
      response_status integer,
      duration_ms integer,
      response_body text,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_attempt_at timestamptz,
      next_attempt_at timestamptz,
      UNIQUE (endpoint_id, event_id)
    );
    CREATE INDEX webhook_deliveries_seller_idx ON webhook_deliveries (seller_id, seq DESC);
    CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id, resource_id, seq)
      WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at);
  `,
};

import type { Migration } from '@lockdrop/db';

/**
 * Tables every service that publishes or consumes events needs in its own schema. Services run
 * `migrate(pool, schema, [...busMigrations, ...their own])`; the `0000_bus_` ids sort before a
 * service's numbered migrations, so its own migrations may rely on these tables. Shipped
 * migrations are never edited (migrate refuses a changed checksum): add a new one instead.
 */
export const busMigrations: Migration[] = [
  {
    id: '0000_bus_01_outbox',
    sql: `
      CREATE TABLE outbox (
        id uuid PRIMARY KEY,
        type text NOT NULL,
        payload jsonb NOT NULL,
        -- clock_timestamp, not now(): events enqueued in one transaction keep their order.
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        published_at timestamptz,
        attempts integer NOT NULL DEFAULT 0
      );
      CREATE INDEX outbox_unpublished_idx ON outbox (created_at) WHERE published_at IS NULL;
    `,
  },
  {
    id: '0000_bus_02_processed_events',
    sql: `
      CREATE TABLE processed_events (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      );
    `,
  },
  {
    id: '0000_bus_03_retention_indexes',
    sql: `
      CREATE INDEX processed_events_age_idx ON processed_events (processed_at);
      CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL;
    `,
  },
];

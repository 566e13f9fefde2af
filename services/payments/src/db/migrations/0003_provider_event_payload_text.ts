import type { Migration } from '@lockdrop/db';

/**
 * Provider payloads are kept as the JSON text we received: `jsonb` refuses a `\u0000` escape,
 * which is valid JSON, so such a signed event could never be stored (and so never answered 200).
 */
export const providerEventPayloadText: Migration = {
  id: '0003_provider_event_payload_text',
  sql: `ALTER TABLE provider_events ALTER COLUMN payload TYPE text USING payload::text;`,
};

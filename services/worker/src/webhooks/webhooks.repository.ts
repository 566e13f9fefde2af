import type { Queryable } from '@lockdrop/db';
import type {
  WebhookDeliveryQuery,
  WebhookDeliveryStatus,
  WebhookEndpointMode,
  WebhookEventType,
  WebhookPayload,
} from '@lockdrop/contracts';

// SQL of the worker's webhook tables (migration 0030); returns plain rows, decides nothing.

export interface EndpointRow {
  id: string;
  seller_id: string;
  seller_email: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  mode: WebhookEndpointMode;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  seq: string;
  endpoint_id: string;
  seller_id: string;
  event_id: string | null;
  event_type: string;
  resource_id: string;
  payload: WebhookPayload;
  status: WebhookDeliveryStatus;
  attempts: number;
  redeliveries: number;
  response_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
}

export async function insertEndpoint(
  tx: Queryable,
  row: Pick<
    EndpointRow,
    | 'id'
    | 'seller_id'
    | 'seller_email'
    | 'url'
    | 'description'
    | 'events'
    | 'enabled'
    | 'mode'
    | 'secret_sealed'
  >,
): Promise<EndpointRow> {
  const { rows } = await tx.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, seller_id, seller_email, url, description, events, enabled, mode, secret_sealed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [
      row.id,
      row.seller_id,
      row.seller_email,
      row.url,
      row.description,
      row.events,
      row.enabled,
      row.mode,
      row.secret_sealed,
    ],
  );
  return rows[0]!;
}

/**
 * Whose endpoints a caller reaches: a seller's, and for an API key only those of the key's mode
 * (`mode` null: every mode, the dashboard's session).
 */
export interface EndpointScope {
  sellerId: string;
  mode: WebhookEndpointMode | null;
}

/** The endpoint in this scope, or undefined when it is not (or does not exist). */
export async function findEndpoint(
  tx: Queryable,
  scope: EndpointScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EndpointRow | undefined> {
  const { rows } = await tx.query<EndpointRow>(
    `SELECT * FROM webhook_endpoints WHERE id = $1 AND seller_id = $2 AND ($3::text IS NULL OR mode = $3)
     ${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, scope.sellerId, scope.mode],
  );
  return rows[0];
}

export async function endpointById(tx: Queryable, id: string): Promise<EndpointRow | undefined> {
  const { rows } = await tx.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1', [
    id,
  ]);
  return rows[0];
}

export async function listEndpoints(tx: Queryable, scope: EndpointScope): Promise<EndpointRow[]> {
  const { rows } = await tx.query<EndpointRow>(
    `SELECT * FROM webhook_endpoints WHERE seller_id = $1 AND ($2::text IS NULL OR mode = $2)
     ORDER BY created_at, id`,
    [scope.sellerId, scope.mode],
  );
  return rows;
}

export async function updateEndpoint(
  tx: Queryable,
  id: string,
  changes: Partial<
    Pick<
      EndpointRow,
      | 'seller_email'
      | 'url'
      | 'description'
      | 'events'
      | 'enabled'
      | 'disabled_reason'
      | 'secret_sealed'
      | 'previous_secret_sealed'
      | 'previous_secret_expires_at'
    >
  >,
): Promise<EndpointRow> {
  const columns = Object.keys(changes);
  const assignments = columns.map((column, index) => `${column} = $${index + 2}`);
  const { rows } = await tx.query<EndpointRow>(
    `UPDATE webhook_endpoints SET ${[...assignments, 'updated_at = now()'].join(', ')}
     WHERE id = $1 RETURNING *`,
    [id, ...Object.values(changes)],
  );
  return rows[0]!;
}

export async function deleteEndpoint(
  tx: Queryable,
  scope: EndpointScope,
  id: string,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    'DELETE FROM webhook_endpoints WHERE id = $1 AND seller_id = $2 AND ($3::text IS NULL OR mode = $3)',
    [id, scope.sellerId, scope.mode],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * The seller's enabled endpoints that listen to `type` in the event's mode (`mode` null: an
 * event about no money, a product's, which endpoints of both modes hear).
 */
/** The enabled endpoints of each of these sellers (one statement for a whole batch of events). */
export async function enabledEndpointsBySeller(
  tx: Queryable,
  sellerIds: readonly string[],
): Promise<Map<string, EndpointRow[]>> {
  const { rows } = await tx.query<EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE seller_id = ANY($1::uuid[]) AND enabled ORDER BY created_at, id',
    [sellerIds],
  );
  const bySeller = new Map<string, EndpointRow[]>();
  for (const row of rows)
    bySeller.set(row.seller_id, [...(bySeller.get(row.seller_id) ?? []), row]);
  return bySeller;
}

/** Whether `endpoint` hears this event: it chose the type, and money reaches only its own mode. */
export const hears = (
  endpoint: Pick<EndpointRow, 'events' | 'mode'>,
  type: WebhookEventType,
  mode: WebhookEndpointMode | null,
): boolean => endpoint.events.includes(type) && (mode === null || endpoint.mode === mode);

/** A new delivery; nothing when this endpoint already has one for this event (a redelivered event). */
export async function insertDelivery(
  tx: Queryable,
  row: Pick<
    DeliveryRow,
    'id' | 'endpoint_id' | 'seller_id' | 'event_id' | 'event_type' | 'resource_id' | 'payload'
  >,
): Promise<DeliveryRow | undefined> {
  const { rows } = await tx.query<DeliveryRow>(
    `INSERT INTO webhook_deliveries (id, endpoint_id, seller_id, event_id, event_type, resource_id, payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING *`,
    [
      row.id,
      row.endpoint_id,
      row.seller_id,
      row.event_id,
      row.event_type,
      row.resource_id,
      JSON.stringify(row.payload),
    ],
  );
  return rows[0];
}

export async function deliveryById(
  tx: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DeliveryRow | undefined> {
  const { rows } = await tx.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

export async function listDeliveries(
  tx: Queryable,
  sellerId: string,
  query: WebhookDeliveryQuery,
): Promise<DeliveryRow[]> {
  const { rows } = await tx.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries
      WHERE seller_id = $1 AND ($2::uuid IS NULL OR endpoint_id = $2) AND ($3::text IS NULL OR status = $3)
      ORDER BY seq DESC LIMIT $4`,
    [sellerId, query.endpointId ?? null, query.status ?? null, query.limit],
  );
  return rows;
}

/** The delivery that must reach the endpoint before this one: an older pending one about the same resource. */
export async function earlierPending(
  tx: Queryable,
  delivery: DeliveryRow,
): Promise<DeliveryRow | undefined> {
  const { rows } = await tx.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries
      WHERE endpoint_id = $1 AND resource_id = $2 AND status = 'pending' AND seq < $3
      ORDER BY seq LIMIT 1`,
    [delivery.endpoint_id, delivery.resource_id, delivery.seq],
  );
  return rows[0];
}

/** The next pending delivery about the same resource, waiting for this one to finish. */
export async function nextPending(
  tx: Queryable,
  delivery: DeliveryRow,
): Promise<DeliveryRow | undefined> {
  const { rows } = await tx.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries
      WHERE endpoint_id = $1 AND resource_id = $2 AND status = 'pending' AND seq > $3
      ORDER BY seq LIMIT 1`,
    [delivery.endpoint_id, delivery.resource_id, delivery.seq],
  );
  return rows[0];
}

export async function recordAttempt(
  tx: Queryable,
  id: string,
  attempt: {
    status: WebhookDeliveryStatus;
    responseStatus: number | null;
    durationMs: number | null;
    responseBody: string | null;
    error: string | null;
    nextAttemptAt: Date | null;
    counted: boolean;
  },
): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET status = $2, response_status = $3, duration_ms = $4,
        response_body = $5, error = $6, next_attempt_at = $7,
        attempts = attempts + $8, last_attempt_at = CASE WHEN $8 = 1 THEN now() ELSE last_attempt_at END
      WHERE id = $1`,
    [
      id,
      attempt.status,
      attempt.responseStatus,
      attempt.durationMs,
      attempt.responseBody,
      attempt.error,
      attempt.nextAttemptAt,
      attempt.counted ? 1 : 0,
    ],
  );
}

/** A redelivery: pending again under the same id (the receiver's idempotency key). */
export async function reopenDelivery(tx: Queryable, id: string): Promise<DeliveryRow> {
  const { rows } = await tx.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', redeliveries = redeliveries + 1, next_attempt_at = now()
      WHERE id = $1 RETURNING *`,
    [id],
  );
  return rows[0]!;
}

/** 90 days of log; pending deliveries stay whatever their age. */
export async function pruneDeliveries(tx: Queryable, before: Date): Promise<number> {
  const { rowCount } = await tx.query(
    `DELETE FROM webhook_deliveries WHERE created_at < $1 AND status <> 'pending'`,
    [before],
  );
  return rowCount ?? 0;
}

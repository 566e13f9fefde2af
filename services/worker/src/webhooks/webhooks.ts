import { randomUUID } from 'node:crypto';
import type { AuthUser, SecretBox } from '@lockdrop/auth';
import type {
  WebhookDelivery,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { errors } from '@lockdrop/http';
import { recordEndpointAction, type EndpointChangeSource } from './audit.js';
import type { DeliveryQueue } from './deliveries.jobs.js';
import { endpointSealContext, newWebhookSecret } from './signing.js';
import {
  deleteEndpoint,
  deliveryById,
  findEndpoint,
  insertDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  reopenDelivery,
  updateEndpoint,
  type DeliveryRow,
  type EndpointRow,
  type EndpointScope,
} from './webhooks.repository.js';

/** How long a rotated-out secret keeps signing, so receivers can switch without missing one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** A delivery's id, sent as `webhook-id`: stable across retries and redeliveries. */
export function newDeliveryId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/**
 * Who reaches which endpoints: the seller's own, and an API key only those of its mode — a test
 * key never sees, changes or learns of a live endpoint (nor a live key a test one).
 */
function scopeOf(seller: AuthUser): EndpointScope {
  return { sellerId: seller.id, mode: seller.apiKey?.mode ?? null };
}

export interface WebhookService {
  list(seller: AuthUser): Promise<WebhookEndpoint[]>;
  get(seller: AuthUser, id: string): Promise<WebhookEndpoint>;
  /** The new endpoint with its secret: the one answer besides rotate and reveal that shows it. */
  // The changes below (and showing a secret) join the store's audit log, said by `source`.
  create(
    seller: AuthUser,
    input: Omit<WebhookEndpointInput, 'mode'> & Partial<Pick<WebhookEndpointInput, 'mode'>>,
    source: EndpointChangeSource,
  ): Promise<WebhookEndpointWithSecret>;
  update(
    seller: AuthUser,
    id: string,
    patch: WebhookEndpointPatch,
    source: EndpointChangeSource,
  ): Promise<WebhookEndpoint>;
  remove(seller: AuthUser, id: string, source: EndpointChangeSource): Promise<void>;
  rotateSecret(
    seller: AuthUser,
    id: string,
    source: EndpointChangeSource,
  ): Promise<WebhookEndpointWithSecret>;
  /** The seller asked to see the secret (Settings → Webhooks, "Reveal secret"). */
  revealSecret(
    seller: AuthUser,
    id: string,
    source: EndpointChangeSource,
  ): Promise<WebhookEndpointWithSecret>;
  sendTest(seller: AuthUser, id: string): Promise<WebhookDelivery>;
  deliveries(seller: AuthUser, query: WebhookDeliveryQuery): Promise<WebhookDelivery[]>;
  redeliver(seller: AuthUser, deliveryId: string): Promise<WebhookDelivery>;
}

/**
 * Sellers' endpoints and their delivery log. Every read and write is scoped to the signed-in
 * seller: another seller's endpoint or delivery is answered as not found.
 */
export function createWebhookService(deps: {
  pool: Pool;
  box: SecretBox;
  deliveries: DeliveryQueue;
  now?: () => Date;
}): WebhookService {
  const { pool, box } = deps;
  const now = deps.now ?? (() => new Date());
  const view = (row: EndpointRow) => endpointView(row, now());
  const withSecret = (row: EndpointRow): WebhookEndpointWithSecret => ({
    ...view(row),
    secret: box.open(row.secret_sealed, endpointSealContext(row)),
  });

  const owned = async (
    tx: Parameters<typeof findEndpoint>[0],
    seller: AuthUser,
    id: string,
    options: { forUpdate?: boolean } = { forUpdate: true },
  ): Promise<EndpointRow> => {
    const endpoint = await findEndpoint(tx, scopeOf(seller), id, options);
    if (!endpoint)
      throw errors.notFound('webhook_endpoint_not_found', 'Webhook endpoint not found');
    return endpoint;
  };

  return {
    async list(seller) {
      return (await listEndpoints(pool, scopeOf(seller))).map(view);
    },
    async get(seller, id) {
      return view(await owned(pool, seller, id, {}));
    },
    async create(seller, input, source) {
      const id = randomUUID();
      return withTransaction(pool, async (tx) => {
        const row = await insertEndpoint(tx, {
          id,
          seller_id: seller.id,
          seller_email: seller.email,
          url: input.url,
          description: input.description,
          events: input.events,
          enabled: input.enabled,
          // A key's endpoints are of its mode, whatever was asked.
          mode: seller.apiKey?.mode ?? input.mode ?? 'live',
          secret_sealed: box.seal(
            newWebhookSecret(),
            endpointSealContext({ id, seller_id: seller.id }),
          ),
        });
        await recordEndpointAction(tx, seller, source, 'webhook_endpoint.created', row);
        return withSecret(row);
      });
    },
    async update(seller, id, patch, source) {
      return withTransaction(pool, async (tx) => {
        await owned(tx, seller, id);
        const row = await updateEndpoint(tx, id, {
          seller_email: seller.email,
          ...(patch.url !== undefined && { url: patch.url }),
          ...(patch.description !== undefined && { description: patch.description }),
          ...(patch.events !== undefined && { events: patch.events }),
          ...(patch.enabled !== undefined && { enabled: patch.enabled, disabled_reason: null }),
        });
        await recordEndpointAction(tx, seller, source, 'webhook_endpoint.updated', row);
        return view(row);
      });
    },
    async remove(seller, id, source) {
      await withTransaction(pool, async (tx) => {
        const endpoint = await owned(tx, seller, id);
        if (!(await deleteEndpoint(tx, scopeOf(seller), id)))
          throw errors.notFound('webhook_endpoint_not_found', 'Webhook endpoint not found');
        await recordEndpointAction(tx, seller, source, 'webhook_endpoint.deleted', endpoint);
      });
    },
    async rotateSecret(seller, id, source) {
      return withTransaction(pool, async (tx) => {
        const endpoint = await owned(tx, seller, id);
        const row = await updateEndpoint(tx, id, {
          secret_sealed: box.seal(newWebhookSecret(), endpointSealContext(endpoint)),
          previous_secret_sealed: endpoint.secret_sealed,
          previous_secret_expires_at: new Date(now().getTime() + ROTATION_OVERLAP_MS),
        });
        await recordEndpointAction(tx, seller, source, 'webhook_endpoint.secret_rotated', row);
        return withSecret(row);
      });
    },
    async revealSecret(seller, id, source) {
      return withTransaction(pool, async (tx) => {
        const endpoint = await owned(tx, seller, id, {});
        await recordEndpointAction(
          tx,
          seller,
          source,
          'webhook_endpoint.secret_revealed',
          endpoint,
        );
        return withSecret(endpoint);
      });
    },
    async sendTest(seller, id) {
      const delivery = await withTransaction(pool, async (tx) => {
        const endpoint = await owned(tx, seller, id);
        const deliveryId = newDeliveryId();
        return (await insertDelivery(tx, {
          id: deliveryId,
          endpoint_id: endpoint.id,
          seller_id: seller.id,
          event_id: null,
          event_type: 'webhook.test',
          resource_id: deliveryId,
          payload: {
            type: 'webhook.test',
            timestamp: now().toISOString(),
            data: { object: 'test', message: 'A test event from Lockdrop' },
          },
        }))!;
      });
      await deps.deliveries.enqueue(delivery, { manual: true });
      return deliveryView(delivery);
    },
    async deliveries(seller, query) {
      return (await listDeliveries(pool, seller.id, query)).map(deliveryView);
    },
    async redeliver(seller, deliveryId) {
      const delivery = await withTransaction(pool, async (tx) => {
        const found = await deliveryById(tx, deliveryId, { forUpdate: true });
        if (!found || found.seller_id !== seller.id)
          throw errors.notFound('webhook_delivery_not_found', 'Delivery not found');
        if (found.status === 'pending')
          throw errors.conflict('webhook_delivery_pending', 'This delivery is still being sent');
        return reopenDelivery(tx, found.id);
      });
      await deps.deliveries.enqueue(delivery, { manual: true });
      return deliveryView(delivery);
    },
  };
}

/** An endpoint as lists and reads show it: never its secret. */
function endpointView(row: EndpointRow, now: Date): WebhookEndpoint {
  const overlapping =
    row.previous_secret_expires_at && row.previous_secret_expires_at > now
      ? row.previous_secret_expires_at.toISOString()
      : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    mode: row.mode,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: overlapping,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function deliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventType: row.event_type as WebhookDelivery['eventType'],
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    responseBody: row.response_body,
    error: row.error,
    payload: row.payload,
    createdAt: row.created_at.toISOString(),
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
  };
}

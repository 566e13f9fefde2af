import { z } from 'zod';
import { apiKeyModeSchema } from './api-keys.js';
import {
  publicPayoutSchema,
  publicProductFilesSchema,
  publicProductSchema,
  publicSaleSchema,
  publicSubscriptionSchema,
} from './public-resources.js';

/** Every event a seller's endpoint may subscribe to (issue 27). */
export const webhookEventTypeSchema = z.enum([
  'sale.created',
  'sale.pending',
  'sale.failed',
  'sale.refunded',
  'sale.disputed',
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.canceled',
  'subscription.ended',
  'product.created',
  'product.updated',
  'product.files_added',
  'payout.paid',
  'payout.failed',
]);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;
export const webhookEventTypes = webhookEventTypeSchema.options;

/**
 * The body of every delivery (Standard Webhooks' recommended shape): `data` is the resource's
 * public state when the event happened, never the internal bus event.
 */
export const webhookPayloadSchema = z.object({
  type: z.union([webhookEventTypeSchema, z.literal('webhook.test')]),
  timestamp: z.iso.datetime({ offset: true }),
  data: z.union([
    publicSaleSchema,
    publicSubscriptionSchema,
    publicProductSchema,
    publicProductFilesSchema,
    publicPayoutSchema,
    z.object({ object: z.literal('test'), message: z.string() }),
  ]),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** Where the address points is checked when sending (the worker refuses private networks). */
const endpointUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

const endpointFields = {
  url: endpointUrlSchema,
  events: z.array(webhookEventTypeSchema).min(1).max(webhookEventTypes.length),
  enabled: z.boolean(),
  description: z.string().trim().max(200),
};

/**
 * Which money an endpoint hears of: a `test` endpoint only test-mode sales, subscriptions and
 * payouts (sandbox or test-key payments), a `live` one only real ones. Products are the same in
 * both modes, so their events reach both. An API key's endpoints take the key's mode.
 */
export const webhookEndpointModeSchema = apiKeyModeSchema;
export type WebhookEndpointMode = z.infer<typeof webhookEndpointModeSchema>;

/** POST /api/webhook-endpoints (the signed-in seller). */
export const webhookEndpointInputSchema = z.object({
  ...endpointFields,
  enabled: endpointFields.enabled.default(true),
  description: endpointFields.description.default(''),
  mode: webhookEndpointModeSchema.default('live'),
});
export type WebhookEndpointInput = z.infer<typeof webhookEndpointInputSchema>;

/**
 * PATCH /api/webhook-endpoints/:id: any of the fields; enabling clears the disabled reason. Built
 * from the fields without their defaults: a patch of the URL alone must not turn a disabled
 * endpoint back on or blank its description (the creation's defaults did, through `.partial()`).
 */
export const webhookEndpointPatchSchema = z
  .object(endpointFields)
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'nothing to change');
export type WebhookEndpointPatch = z.infer<typeof webhookEndpointPatchSchema>;

const timestamp = z.iso.datetime({ offset: true });

export const webhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventTypeSchema),
  enabled: z.boolean(),
  mode: webhookEndpointModeSchema,
  /** Why the worker disabled it (persistent failure); null when enabled or disabled by the seller. */
  disabledReason: z.string().nullable(),
  /** During a rotation: the previous secret still signs deliveries until this moment. */
  previousSecretExpiresAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/**
 * An endpoint with its signing secret: only the answers of creating it, rotating its secret, and
 * the seller's explicit "Reveal" — never a list or a plain read, so a page left open, a log or a
 * cache of the list holds no secret.
 */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  /** `whsec_…` (Standard Webhooks): the receiver verifies deliveries with it. */
  secret: z.string(),
});
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

export const webhookDeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

export const webhookDeliverySchema = z.object({
  /** The `webhook-id` header: the same on every retry and redelivery (the receiver's idempotency key). */
  id: z.string(),
  endpointId: z.uuid(),
  eventType: z.union([webhookEventTypeSchema, z.literal('webhook.test')]),
  status: webhookDeliveryStatusSchema,
  attempts: z.number().int().nonnegative(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** The receiver's answer, cut to 1 KB; or why nothing was sent (refused address, timeout). */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  payload: webhookPayloadSchema,
  createdAt: timestamp,
  lastAttemptAt: timestamp.nullable(),
  nextAttemptAt: timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryQuerySchema = z.object({
  endpointId: z.uuid().optional(),
  status: webhookDeliveryStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type WebhookDeliveryQuery = z.infer<typeof webhookDeliveryQuerySchema>;

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

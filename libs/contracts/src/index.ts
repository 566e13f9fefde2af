import { envelopeSchema } from './envelope.js';
import {
  events,
  isEventType,
  type DomainEvent,
  type EventData,
  type EventDefinition,
  type EventType,
} from './events/index.js';

export { envelopeSchema, type Envelope } from './envelope.js';
export {
  events,
  eventPublishers,
  eventTypes,
  isEventType,
  type DomainEvent,
  type EventData,
  type EventType,
} from './events/index.js';
export {
  planIdSchema,
  currencySchema,
  moneySchema,
  fileKindSchema,
  productStatusSchema,
  type PlanId,
  type FileKind,
  type ProductStatus,
} from './shared.js';
export { errorBodySchema, type ErrorBody } from './errors.js';
export { contactMessageSchema, type ContactMessage } from './api/contact.js';
export * from './api/payouts.js';
export * from './api/subscriptions.js';
export * from './api/purchases.js';
export { previewImagePath } from './api/previews.js';
export * from './api/product-links.js';
export * from './api/products.js';
export * from './api/brand.js';
export * from './api/domains.js';
export * from './api/uploads.js';
export * from './api/identity.js';
export * from './api/teams.js';
export * from './api/api-keys.js';
export * from './api/v1.js';
export * from './api/v1-money.js';
// The `/api/v1` document's types (npm run api:types), for openapi-fetch: createClient<ApiV1Paths>().
export type { paths as ApiV1Paths } from './api/v1-openapi.js';
export * from './api/downloads.js';
export * from './api/checkout.js';
export * from './api/discounts.js';
export * from './api/buyer-updates.js';
export * from './api/public-resources.js';
export * from './api/webhooks.js';
export { subscriptionSnapshotSchema, type SubscriptionSnapshot } from './events/payments.js';
export { MAX_VIEWS_PER_BATCH } from './events/gateway.js';
export { productSnapshotEventTypes, type ProductSnapshotEventType } from './events/catalog.js';
export { auditedActionSchema, type AuditedAction } from './events/audited-action.js';
export * from './api/analytics.js';
export {
  EXCHANGE_RATES_STALE_AFTER_MS,
  currencyListSchema,
  exchangeRatesResponseSchema,
  type CurrencyList,
  type ExchangeRatesResponse,
} from './api/exchange-rates.js';
export {
  commands,
  DEV_PAYOUT_INSTRUCTION_KEYS,
  openPayoutInstruction,
  payoutInstructionContext,
  payoutInstructionSchema,
  sealPayoutInstruction,
  type PayoutInstruction,
  type SealedPayoutInstruction,
  type CommandName,
  type CommandReply,
  type CommandRequest,
} from './commands.js';

/** Builds a new event of `type` at its current version; `data` is validated here, at the source. */
export function createEvent<T extends EventType>(
  type: T,
  data: EventData<T>,
  options: { correlationId: string; occurredAt?: Date; id?: string },
): DomainEvent<T> {
  const definition = events[type];
  return {
    id: options.id ?? globalThis.crypto.randomUUID(),
    type,
    version: definition.version,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    correlationId: options.correlationId,
    data: definition.schema.parse(data) as EventData<T>,
  };
}

export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
}

/** Validates an incoming envelope and its data against the registry; throws InvalidEventError. */
export function parseEvent(input: unknown): DomainEvent {
  const envelope = envelopeSchema.safeParse(input);
  if (!envelope.success) throw new InvalidEventError(`bad envelope: ${envelope.error.message}`);
  const { type, version } = envelope.data;
  if (!isEventType(type)) throw new InvalidEventError(`unknown event type ${type}`);
  const definition: EventDefinition = events[type];
  const upcast = version === definition.version ? undefined : definition.upcasters?.[version];
  if (version !== definition.version && !upcast) {
    throw new InvalidEventError(
      `${type} v${version} is not supported (current v${definition.version})`,
    );
  }
  try {
    const data = definition.schema.parse(upcast ? upcast(envelope.data.data) : envelope.data.data);
    return { ...envelope.data, type, version: definition.version, data } as DomainEvent;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidEventError(`bad ${type} v${version} data: ${reason}`);
  }
}

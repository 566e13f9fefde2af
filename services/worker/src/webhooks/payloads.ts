import type {
  DomainEvent,
  EventData,
  PublicPayout,
  PublicProduct,
  PublicSale,
  PublicSubscription,
  SubscriptionSnapshot,
  WebhookEndpointMode,
  WebhookEventType,
  WebhookPayload,
} from '@lockdrop/contracts';

/** What one bus event becomes for a seller's endpoints: a webhook type and the resource's state. */
export interface WebhookEvent {
  type: WebhookEventType;
  sellerId: string;
  /**
   * Which endpoints hear it: the money's mode (an event without `testMode`, published before it
   * was carried, is live); null for a product's events, which are the same in both modes.
   */
  mode: WebhookEndpointMode | null;
  /** Deliveries about one resource reach an endpoint in the order they were created. */
  resourceId: string;
  payload: WebhookPayload;
}

function envelope(
  type: WebhookEventType,
  event: DomainEvent,
  data: WebhookPayload['data'],
): WebhookPayload {
  return { type, timestamp: event.occurredAt, data };
}

const modeOf = (data: { testMode?: boolean }): WebhookEndpointMode =>
  data.testMode ? 'test' : 'live';

/**
 * A payment under way (`purchase.pending`) or that then failed (`purchase.failed`): the sale as
 * it stands, under the id it has once paid, with no fees (none are known before the money is).
 */
function saleInProgress(
  data: EventData<'purchase.pending'> | EventData<'purchase.failed'>,
  status: 'pending' | 'failed',
  updatedAt: string,
): PublicSale {
  return {
    object: 'sale',
    id: data.purchaseId,
    productId: data.productId,
    productTitle: data.productTitle,
    buyerEmail: data.buyerEmail,
    status,
    amountMinor: data.amountMinor,
    currency: data.currency,
    feePlatformMinor: null,
    feeProcessorMinor: null,
    sellerEarningsMinor: null,
    subscriptionId: null,
    paidAt: null,
    refundedAt: null,
    updatedAt: updatedAt,
  };
}

function saleFromPaid(data: EventData<'purchase.paid'>, updatedAt: string): PublicSale {
  return {
    object: 'sale',
    id: data.purchaseId,
    productId: data.productId,
    productTitle: data.productTitle,
    buyerEmail: data.buyerEmail,
    status: 'paid',
    amountMinor: data.amountMinor,
    currency: data.currency,
    feePlatformMinor: data.feePlatformMinor,
    feeProcessorMinor: data.feeProcessorMinor,
    sellerEarningsMinor: data.sellerEarningsMinor,
    subscriptionId: data.subscription?.subscriptionId ?? null,
    paidAt: data.paidAt,
    refundedAt: null,
    updatedAt: updatedAt,
  };
}

/**
 * `purchase.refunded` carries what the sale's public state needs except the fees, which a
 * refund does not change: those are null here rather than guessed.
 */
function saleFromRefund(data: EventData<'purchase.refunded'>, updatedAt: string): PublicSale {
  return {
    object: 'sale',
    id: data.purchaseId,
    productId: data.productId,
    productTitle: null,
    buyerEmail: data.buyerEmail,
    status: data.reason === 'chargeback' ? 'disputed' : 'refunded',
    amountMinor: data.amountMinor,
    currency: data.currency,
    feePlatformMinor: null,
    feeProcessorMinor: null,
    sellerEarningsMinor: null,
    subscriptionId: null,
    paidAt: null,
    refundedAt: data.refundedAt,
    updatedAt: updatedAt,
  };
}

const subscriptionTypes: Partial<Record<string, WebhookEventType>> = {
  'subscription.started': 'subscription.created',
  'subscription.renewed': 'subscription.renewed',
  'subscription.past_due': 'subscription.past_due',
  'subscription.cancelled': 'subscription.canceled',
  'subscription.expired': 'subscription.ended',
};

function publicSubscription(
  snapshot: SubscriptionSnapshot,
  productId: string,
  updatedAt: string,
): PublicSubscription {
  const status =
    snapshot.status === 'expired'
      ? 'ended'
      : snapshot.cancelAtPeriodEnd && snapshot.status === 'active'
        ? 'canceled'
        : snapshot.status;
  return {
    object: 'subscription',
    id: snapshot.subscriptionId,
    productId: productId,
    buyerEmail: snapshot.buyerEmail,
    status,
    interval: snapshot.interval,
    amountMinor: snapshot.amountMinor,
    currency: snapshot.currency,
    cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
    currentPeriodEnd: snapshot.currentPeriodEnd,
    accessUntil: snapshot.accessUntil,
    updatedAt: updatedAt,
  };
}

function publicProduct(data: EventData<'product.created'>, updatedAt: string): PublicProduct {
  const files = data.files ?? [
    { fileId: data.fileId, fileName: data.fileName, fileSizeBytes: data.fileSizeBytes },
  ];
  return {
    object: 'product',
    id: data.productId,
    title: data.title,
    description: data.description,
    status: data.status,
    priceMinor: data.priceMinor,
    currency: data.currency,
    pricingType: data.pricing.type,
    files: files.map((file) => ({
      id: file.fileId,
      name: file.fileName,
      sizeBytes: file.fileSizeBytes,
    })),
    updatedAt: updatedAt,
  };
}

function publicPayout(
  event: DomainEvent<'payout.paid'> | DomainEvent<'payout.failed'>,
): PublicPayout {
  const paid = event.type === 'payout.paid';
  return {
    object: 'payout',
    id: event.data.payoutId,
    status: paid ? 'paid' : 'failed',
    amountMinor: event.data.amountMinor,
    currency: event.data.currency,
    providerReference: 'providerReference' in event.data ? event.data.providerReference : null,
    failureReason: 'reason' in event.data ? event.data.reason : null,
    updatedAt: event.occurredAt,
  };
}

/**
 * The bus events sellers hear about, as Standard-Webhooks payloads; null for events that are
 * not theirs (a platform plan subscription) or that no webhook carries. `sale.created` comes
 * only from `purchase.paid`: payments publishes it after the provider verified the payment.
 * `sale.pending` comes from `purchase.pending` (the provider's verify API reported a bank
 * transfer or USSD payment under way) and `sale.failed` from `purchase.failed` (that payment
 * failed): all three carry the same sale id.
 */
export function toWebhookEvent(event: DomainEvent): WebhookEvent | null {
  const at = event.occurredAt;
  switch (event.type) {
    case 'purchase.paid': {
      const data = (event as DomainEvent<'purchase.paid'>).data;
      return {
        type: 'sale.created',
        sellerId: data.sellerId,
        mode: modeOf(data),
        resourceId: data.purchaseId,
        payload: envelope('sale.created', event, saleFromPaid(data, at)),
      };
    }
    case 'purchase.pending':
    case 'purchase.failed': {
      const data = (event as DomainEvent<'purchase.pending'> | DomainEvent<'purchase.failed'>).data;
      const [type, status] =
        event.type === 'purchase.pending'
          ? (['sale.pending', 'pending'] as const)
          : (['sale.failed', 'failed'] as const);
      return {
        type,
        sellerId: data.sellerId,
        mode: modeOf(data),
        resourceId: data.purchaseId,
        payload: envelope(type, event, saleInProgress(data, status, at)),
      };
    }
    case 'purchase.refunded': {
      const data = (event as DomainEvent<'purchase.refunded'>).data;
      const type = data.reason === 'chargeback' ? 'sale.disputed' : 'sale.refunded';
      return {
        type,
        sellerId: data.sellerId,
        mode: modeOf(data),
        resourceId: data.purchaseId,
        payload: envelope(type, event, saleFromRefund(data, at)),
      };
    }
    case 'product.created':
    case 'product.updated': {
      const data = (event as DomainEvent<'product.created'>).data;
      return {
        type: event.type,
        sellerId: data.ownerId,
        mode: null,
        resourceId: data.productId,
        payload: envelope(event.type, event, publicProduct(data, at)),
      };
    }
    case 'product.files_added': {
      const data = (event as DomainEvent<'product.files_added'>).data;
      // The event names the new files only; the product's whole state follows in product.updated.
      return {
        type: 'product.files_added',
        sellerId: data.ownerId,
        mode: null,
        resourceId: data.productId,
        payload: envelope('product.files_added', event, {
          object: 'product_files',
          productId: data.productId,
          productTitle: data.productTitle,
          files: data.files.map((file) => ({ id: file.fileId, name: file.fileName })),
          updatedAt: at,
        }),
      };
    }
    case 'payout.paid':
    case 'payout.failed': {
      const typed = event as DomainEvent<'payout.paid'> | DomainEvent<'payout.failed'>;
      return {
        type: event.type,
        sellerId: typed.data.sellerId,
        mode: modeOf(typed.data),
        resourceId: typed.data.payoutId,
        payload: envelope(event.type, event, publicPayout(typed)),
      };
    }
    default: {
      const type = subscriptionTypes[event.type];
      if (!type) return null;
      const snapshot = event.data as SubscriptionSnapshot;
      if (snapshot.kind !== 'product' || !snapshot.sellerId || !snapshot.productId) return null;
      return {
        type,
        sellerId: snapshot.sellerId,
        mode: modeOf(snapshot),
        resourceId: snapshot.subscriptionId,
        payload: envelope(type, event, publicSubscription(snapshot, snapshot.productId, at)),
      };
    }
  }
}

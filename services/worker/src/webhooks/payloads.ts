import type {
  DomainEvent,
  EventData,
  PublicPayout,
  PublicProduct,
  PublicSale,
  PublicSubscription,
  SubscriptionSnapshot,
  WebhookEventType,
  WebhookPayload,
} from '@lockdrop/contracts';

/** What one bus event becomes for a seller's endpoints: a webhook type and the resource's state. */
export interface WebhookEvent {
  type: WebhookEventType;
  sellerId: string;
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

function saleFromPaid(data: EventData<'purchase.paid'>, updatedAt: string): PublicSale {
  return {
    object: 'sale',
    id: data.purchaseId,
    product_id: data.productId,
    product_title: data.productTitle,
    buyer_email: data.buyerEmail,
    status: 'paid',
    amount_minor: data.amountMinor,
    currency: data.currency,
    fee_platform_minor: data.feePlatformMinor,
    fee_processor_minor: data.feeProcessorMinor,
    seller_earnings_minor: data.sellerEarningsMinor,
    subscription_id: data.subscription?.subscriptionId ?? null,
    paid_at: data.paidAt,
    refunded_at: null,
    updated_at: updatedAt,
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
    product_id: data.productId,
    product_title: null,
    buyer_email: data.buyerEmail,
    status: data.reason === 'chargeback' ? 'disputed' : 'refunded',
    amount_minor: data.amountMinor,
    currency: data.currency,
    fee_platform_minor: null,
    fee_processor_minor: null,
    seller_earnings_minor: null,
    subscription_id: null,
    paid_at: null,
    refunded_at: data.refundedAt,
    updated_at: updatedAt,
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
    product_id: productId,
    buyer_email: snapshot.buyerEmail,
    status,
    interval: snapshot.interval,
    amount_minor: snapshot.amountMinor,
    currency: snapshot.currency,
    cancel_at_period_end: snapshot.cancelAtPeriodEnd,
    current_period_end: snapshot.currentPeriodEnd,
    access_until: snapshot.accessUntil,
    updated_at: updatedAt,
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
    price_minor: data.priceMinor,
    currency: data.currency,
    pricing_type: data.pricing.type,
    files: files.map((file) => ({
      id: file.fileId,
      name: file.fileName,
      size_bytes: file.fileSizeBytes,
    })),
    updated_at: updatedAt,
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
    amount_minor: event.data.amountMinor,
    currency: event.data.currency,
    provider_reference: 'providerReference' in event.data ? event.data.providerReference : null,
    failure_reason: 'reason' in event.data ? event.data.reason : null,
    updated_at: event.occurredAt,
  };
}

/**
 * The bus events sellers hear about, as Standard-Webhooks payloads; null for events that are
 * not theirs (a platform plan subscription) or that no webhook carries. `sale.created` comes
 * only from `purchase.paid`: payments publishes it after the provider verified the payment.
 * No bus event reports a payment still pending (bank transfer, USSD), so `sale.pending` is
 * accepted on endpoints but nothing emits it yet.
 */
export function toWebhookEvent(event: DomainEvent): WebhookEvent | null {
  const at = event.occurredAt;
  switch (event.type) {
    case 'purchase.paid': {
      const data = (event as DomainEvent<'purchase.paid'>).data;
      return {
        type: 'sale.created',
        sellerId: data.sellerId,
        resourceId: data.purchaseId,
        payload: envelope('sale.created', event, saleFromPaid(data, at)),
      };
    }
    case 'purchase.refunded': {
      const data = (event as DomainEvent<'purchase.refunded'>).data;
      const type = data.reason === 'chargeback' ? 'sale.disputed' : 'sale.refunded';
      return {
        type,
        sellerId: data.sellerId,
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
        resourceId: data.productId,
        payload: envelope('product.files_added', event, {
          object: 'product_files',
          product_id: data.productId,
          product_title: data.productTitle,
          files: data.files.map((file) => ({ id: file.fileId, name: file.fileName })),
          updated_at: at,
        }),
      };
    }
    case 'payout.paid':
    case 'payout.failed': {
      const typed = event as DomainEvent<'payout.paid'> | DomainEvent<'payout.failed'>;
      return {
        type: event.type,
        sellerId: typed.data.sellerId,
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
        resourceId: snapshot.subscriptionId,
        payload: envelope(type, event, publicSubscription(snapshot, snapshot.productId, at)),
      };
    }
  }
}

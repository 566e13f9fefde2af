import type { IncomingHttpHeaders } from 'node:http';
import type { Bank, BankAccount } from '@lockdrop/contracts';
import type { BillingInterval } from '@lockdrop/contracts';

export type ProviderName = 'sandbox' | 'flutterwave';

/** What we ask a provider for: a hosted page where the buyer pays `amountMinor` of `currency`. */
export interface PaymentLinkRequest {
  checkoutId: string;
  txRef: string;
  amountMinor: number;
  currency: string;
  buyerEmail: string;
  productTitle: string;
  /** Where the provider sends the buyer back (`?status=…&tx_ref=…&transaction_id=…`). */
  redirectUrl: string;
  /**
   * Set when paying starts a subscription: the hosted page offers Subscribe, and a provider that
   * charges renewals itself gets its payment plan (`providerPlanId`, from `ensurePaymentPlan`).
   */
  recurring?: { interval: BillingInterval; providerPlanId: string | null } | null;
  /** How long the hosted page may take payment (a checkout holding a discount code's use). */
  sessionMinutes?: number | null;
  /** The seller's store on the hosted page (Flutterwave `customizations`); null: Lockdrop's. */
  brand?: { name: string; logoUrl: string | null } | null;
}

/** What a provider needs to find (and stop or restart) the subscription it charges. */
export interface ProviderSubscriptionRef {
  providerSubscriptionId: string | null;
  providerPlanId: string | null;
  buyerEmail: string;
}

/**
 * A transaction as the provider's verify API reports it — the only thing we give value on.
 * `processorFeeMinor` is null when the provider reports no fee.
 */
export interface VerifiedTransaction {
  transactionId: string;
  txRef: string;
  status: 'successful' | 'failed' | 'pending' | 'other';
  amountMinor: number;
  currency: string;
  processorFeeMinor: number | null;
  /** When the provider says the buyer paid; null when it does not say. */
  paidAt?: Date | null;
  /** The provider's subscription this charge belongs to (sandbox: the card on file), if any. */
  providerSubscriptionId?: string | null;
  /** The provider's payment plan a renewal was charged under (Flutterwave `payment_plan`). */
  paymentPlanId?: string | null;
  customerEmail?: string | null;
}

/** A notification normalised from whichever payload shape the provider sent. */
export interface WebhookNotice {
  /** Unique per provider notification: the store's de-duplication key. */
  eventKey: string;
  eventType: string;
  /** Set for charge notifications we act on (by verifying this id); null for others we only store. */
  charge: { transactionId: string; txRef: string } | null;
  /** Set for transfer (payout) notifications: our payout id, sent as the transfer's reference. */
  transfer?: { reference: string } | null;
  /** Set for refund notifications: the refunded transaction, whose refund is then re-checked. */
  refund?: { transactionId: string } | null;
  /** Set for chargebacks/disputes: the disputed transaction. */
  dispute?: { transactionId: string; status: string } | null;
}

/** A refund as the provider reports it, normalised. */
export interface ProviderRefund {
  providerRefundId: string;
  status: 'succeeded' | 'pending' | 'failed';
  failureReason: string | null;
}

/**
 * A dispute (chargeback) as the provider reports it, normalised: `open` while the bank holds or
 * has taken the money, `lost` when it is the buyer's for good, `won` when the seller won it.
 */
export interface ProviderDispute {
  disputeId: string;
  transactionId: string;
  status: 'open' | 'lost' | 'won';
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Payments here move no real money (the sandbox, or a provider's test keys): say so to buyers. */
  readonly testMode: boolean;
  createPaymentLink(request: PaymentLinkRequest): Promise<{ link: string }>;
  /** Checks the signature headers against the raw body, in constant time. */
  authenticateWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): boolean;
  parseWebhook(body: unknown): WebhookNotice;
  /** null when the provider does not know the transaction. */
  verifyTransaction(transactionId: string): Promise<VerifiedTransaction | null>;
  verifyByReference(txRef: string): Promise<VerifiedTransaction | null>;
  /** Asks for the money back. Throws ProviderRejectedError on a definite refusal; any other error leaves it unknown. */
  refund(transactionId: string, amountMinor: number, currency: string): Promise<ProviderRefund>;
  /**
   * The provider's refund of exactly this transaction (by its id when we have one), or null when
   * the provider's records, read to the end, hold none. Null is not "failed": a refund is failed
   * only when the provider says so. Throws when the records could not be read to the end.
   */
  findRefund(
    transactionId: string,
    providerRefundId: string | null,
    since: Date,
  ): Promise<ProviderRefund | null>;
  /**
   * The provider's dispute of exactly this transaction, or null when its records (read to the
   * end) hold none: a dispute webhook is acted on only when this confirms it. Throws when the
   * provider cannot answer.
   */
  findDispute(transactionId: string): Promise<ProviderDispute | null>;
  /**
   * Providers that charge renewals themselves (Flutterwave) need a payment plan per amount,
   * currency and interval; returns its id. Absent for providers we charge renewals through.
   */
  ensurePaymentPlan?(plan: {
    name: string;
    interval: BillingInterval;
    amountMinor: number;
    currency: string;
  }): Promise<string>;
  /**
   * Providers whose renewals we charge (the sandbox: a card on file): charges the subscription
   * for one period under `txRef` and reports the result as verify would. Absent otherwise.
   */
  chargeSubscription?(request: {
    providerSubscriptionId: string;
    txRef: string;
    amountMinor: number;
    currency: string;
    buyerEmail: string;
    title: string;
  }): Promise<VerifiedTransaction>;
  /** Stops the provider charging this subscription (a cancel at period end, or the end). */
  cancelSubscription(ref: ProviderSubscriptionRef): Promise<void>;
  /** Lets the provider charge it again (a cancellation taken back before the period ended). */
  resumeSubscription(ref: ProviderSubscriptionRef): Promise<void>;
  /** Nigerian banks payouts can reach (payments-contract §5 `GET /v3/banks/NG`). */
  listBanks(): Promise<Bank[]>;
  /** The account holder's name as the bank knows it, or null when there is no such account. */
  resolveBankAccount(account: BankAccount): Promise<string | null>;
}

/** The provider could not be reached or answered 5xx/429/timeout: try again later, never guess. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}

/** The provider refused the request (4xx with an error envelope). */
export class ProviderRejectedError extends Error {
  override name = 'ProviderRejectedError';
}

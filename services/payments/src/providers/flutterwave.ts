import { minorToDecimalString, toMinor } from '@lockdrop/money';
import { z } from 'zod';
import type { Bank } from '@lockdrop/contracts';
import { authenticateFlutterwaveWebhook, parseFlutterwaveWebhook } from './flutterwave-webhook.js';
import { NIGERIAN_BANKS } from './nigerian-banks.js';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type PaymentProvider,
  type ProviderDispute,
  type ProviderRefund,
  type ProviderSubscriptionRef,
  type VerifiedTransaction,
} from './types.js';

export interface FlutterwaveOptions {
  baseUrl: string;
  secretKey: string;
  webhookHash: string;
  timeoutMs: number;
  /**
   * How long a bank list from `GET /banks/NG` is reused before asking again (banks change a few
   * times a year; every payout form asks). 0 asks every time.
   */
  bankListCacheSeconds?: number;
  /** Told when the bank list falls back (stale cache or the bundled list): the provider failed. */
  onBankListFallback?: (error: unknown, served: 'stale' | 'bundled') => void;
  now?: () => number;
}

const amount = z.union([z.number(), z.string()]);

const transactionSchema = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  tx_ref: z.string(),
  status: z.string(),
  amount,
  currency: z.string(),
  app_fee: amount.nullish(),
  /** Set on charges made under a payment plan (a subscription's first payment and renewals). */
  payment_plan: z.union([z.number(), z.string()]).nullish(),
  customer: z.looseObject({ email: z.string().nullish() }).nullish(),
  created_at: z.string().nullish(),
});

const envelopeSchema = z.looseObject({
  status: z.string(),
  message: z.string().optional(),
  data: z.unknown(),
});

const STATUSES = new Set(['successful', 'failed', 'pending']);

function dateOrNull(text: string | null | undefined): Date | null {
  const date = text ? new Date(text) : null;
  return date && Number.isFinite(date.getTime()) ? date : null;
}

function toVerified(data: unknown): VerifiedTransaction {
  const transaction = transactionSchema.parse(data);
  const currency = transaction.currency.toUpperCase();
  return {
    transactionId: transaction.id,
    txRef: transaction.tx_ref,
    status: STATUSES.has(transaction.status)
      ? (transaction.status as VerifiedTransaction['status'])
      : 'other',
    // Flutterwave amounts are major units (payments-contract: shared rules).
    amountMinor: toMinor(transaction.amount, currency),
    currency,
    processorFeeMinor: transaction.app_fee == null ? null : toMinor(transaction.app_fee, currency),
    paidAt: dateOrNull(transaction.created_at),
    paymentPlanId: transaction.payment_plan == null ? null : String(transaction.payment_plan),
    customerEmail: transaction.customer?.email ?? null,
    // Flutterwave charges renewals itself; its subscription is found by customer and plan.
    providerSubscriptionId: null,
  };
}

const subscriptionSchema = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  status: z.string(),
  plan: z.union([z.number(), z.string()]).transform(String).nullish(),
  customer: z.looseObject({ customer_email: z.string().nullish() }).nullish(),
});

const refundOwnerSchema = z.looseObject({
  tx_id: z.union([z.number(), z.string()]).transform(String),
});
/** payments-contract shared rules: list endpoints add `meta.page_info`. */
const pageInfoSchema = z.looseObject({
  page_info: z.looseObject({ total_pages: z.coerce.number().int().min(1) }),
});
/** A bound on one list lookup; a longer list is an unknown (asked again later), never a "none". */
const MAX_LIST_PAGES = 200;

/**
 * [?] Chargebacks are not in payments-contract.md: `GET /v3/chargebacks?flw_ref=…&page=…` and the
 * record's `flw_ref`/`tx_id`/`status` follow Flutterwave's v2 reference and integrators. Statuses:
 * `won`/`reversed` are the seller's; `lost`/`accepted` the buyer's; anything else (`initiated`,
 * `pending`, `declined` = the seller contests it) is open — the money is held meanwhile.
 */
const chargebackSchema = z.looseObject({
  id: z.union([z.number(), z.string()]).transform(String),
  flw_ref: z.string().nullish(),
  tx_id: z.union([z.number(), z.string()]).transform(String).nullish(),
  transaction_id: z.union([z.number(), z.string()]).transform(String).nullish(),
  status: z.string(),
});

function toDisputeStatus(status: string): ProviderDispute['status'] {
  const normalised = status.toLowerCase();
  if (normalised === 'won' || normalised === 'reversed') return 'won';
  if (normalised === 'lost' || normalised === 'accepted') return 'lost';
  return 'open';
}

/** Flutterwave v3: Standard hosted checkout, verify by id or reference, refunds. */
/** Flutterwave decides the mode by the key alone (same host for test and live). */
/** payments-contract §4: `completed`; `pending`/`processing` are possible [?]; `failed` ends it. */
function toProviderRefund(data: unknown): ProviderRefund | null {
  const parsed = z
    .looseObject({
      id: z.union([z.number(), z.string()]).transform(String),
      status: z.string(),
      comments: z.string().nullish(),
    })
    .safeParse(data);
  if (!parsed.success) return null;
  const status = parsed.data.status.toLowerCase();
  return {
    providerRefundId: parsed.data.id,
    status:
      status === 'completed' || status === 'successful'
        ? 'succeeded'
        : status === 'failed'
          ? 'failed'
          : 'pending',
    failureReason:
      status === 'failed' ? 'The payment provider could not refund this payment' : null,
  };
}

export const isFlutterwaveTestKey = (secretKey: string): boolean =>
  secretKey.startsWith('FLWSECK_TEST-');

export function createFlutterwaveProvider(options: FlutterwaveOptions): PaymentProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const bankListCacheMs = (options.bankListCacheSeconds ?? 6 * 3600) * 1000;
  /** The last list Flutterwave gave: reused while fresh, and served stale when it fails. */
  let bankList: { banks: Bank[]; fetchedAt: number } | null = null;

  async function fetchBanks(): Promise<Bank[]> {
    const data = await call('GET', '/banks/NG');
    const parsed = z
      .array(
        z.looseObject({
          code: z.union([z.string(), z.number()]).transform(String),
          name: z.string(),
        }),
      )
      .min(1)
      .safeParse(data);
    if (!parsed.success) throw new ProviderUnavailableError('flutterwave banks: unreadable answer');
    return parsed.data
      .map(({ code, name }) => ({ code, name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** One API call: the envelope's data on 2xx, null on a 404-style "not found", errors otherwise. */
  async function call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
  ): Promise<unknown> {
    return (await callForEnvelope(method, path, body))?.data ?? null;
  }

  /** As `call`, with the whole envelope (a list's `meta.page_info`). */
  async function callForEnvelope(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
  ): Promise<z.infer<typeof envelopeSchema> | null> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new ProviderUnavailableError(
        `flutterwave ${method} ${path}: ${(error as Error).message}`,
      );
    }
    if (response.status >= 500 || response.status === 429) {
      throw new ProviderUnavailableError(`flutterwave ${method} ${path}: HTTP ${response.status}`);
    }
    let envelope: z.infer<typeof envelopeSchema>;
    try {
      envelope = envelopeSchema.parse(await response.json());
    } catch (error) {
      throw new ProviderUnavailableError(
        `flutterwave ${method} ${path}: unreadable answer (${(error as Error).message})`,
      );
    }
    if (response.ok && envelope.status === 'success') return envelope;
    if (
      response.status === 404 ||
      (response.status === 400 && envelope.data == null && method === 'GET')
    )
      return null;
    throw new ProviderRejectedError(
      `flutterwave ${method} ${path}: ${envelope.message ?? `HTTP ${response.status}`}`,
    );
  }

  /**
   * Every item of a paged list, page by page (`meta.page_info`): a provider list is never read as
   * complete from its first page, and a list not read to its end is an unknown (an error), never
   * a "none". The provider may ignore the filters in `query`: callers match items themselves.
   */
  async function everyPage<T>(
    path: string,
    query: URLSearchParams,
    item: z.ZodType<T>,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; page <= MAX_LIST_PAGES; page++) {
      query.set('page', String(page));
      const envelope = await callForEnvelope('GET', `${path}?${query.toString()}`);
      const listed = z.array(item).safeParse(envelope?.data ?? []);
      const pages = pageInfoSchema.safeParse(envelope?.meta);
      if (!listed.success || !pages.success)
        throw new ProviderUnavailableError(`flutterwave GET ${path}: unreadable page`);
      items.push(...listed.data);
      if (page >= pages.data.page_info.total_pages || listed.data.length === 0) return items;
    }
    throw new ProviderUnavailableError(
      `flutterwave GET ${path}: more than ${MAX_LIST_PAGES} pages; not read to the end`,
    );
  }

  /**
   * Flutterwave's subscriptions are the customer's under a payment plan (payments-contract §7).
   * Every Lockdrop subscription has a plan of its own, so the one to cancel or activate is the
   * customer's under exactly that plan. The list's `email`/`plan` filters are not in the contract
   * as filters: every page is read and matched here, on the plan and the e-mail both, so an
   * ignored filter can never reach another seller's subscription of the same buyer.
   */
  async function setSubscriptionState(
    ref: ProviderSubscriptionRef,
    from: 'active' | 'cancelled',
    action: 'cancel' | 'activate',
  ): Promise<void> {
    if (!ref.providerPlanId) return;
    const email = ref.buyerEmail.toLowerCase();
    const listed = await everyPage(
      '/subscriptions',
      new URLSearchParams({ email: ref.buyerEmail, plan: ref.providerPlanId }),
      subscriptionSchema,
    );
    const found = listed
      .filter((subscription) => subscription.plan === ref.providerPlanId)
      .filter((subscription) => subscription.customer?.customer_email?.toLowerCase() === email)
      .filter((subscription) => subscription.status.toLowerCase() === from);
    for (const subscription of found)
      await call('PUT', `/subscriptions/${encodeURIComponent(subscription.id)}/${action}`);
  }

  return {
    name: 'flutterwave',
    testMode: isFlutterwaveTestKey(options.secretKey),

    async createPaymentLink(request) {
      const data = await call('POST', '/payments', {
        tx_ref: request.txRef,
        amount: minorToDecimalString(request.amountMinor, request.currency),
        currency: request.currency,
        redirect_url: request.redirectUrl,
        customer: { email: request.buyerEmail },
        customizations: {
          title: request.brand?.name ?? 'Lockdrop',
          description: request.productTitle,
          ...(request.brand?.logoUrl ? { logo: request.brand.logoUrl } : {}),
        },
        meta: { checkout_id: request.checkoutId },
        // payments-contract §7: a payment plan turns the payment into a subscription.
        ...(request.recurring?.providerPlanId
          ? { payment_plan: request.recurring.providerPlanId }
          : {}),
        // payments-contract §1: minutes, at most 1440, at the top level as the guide shows.
        ...(request.sessionMinutes ? { session_duration: request.sessionMinutes } : {}),
      });
      const parsed = z.object({ link: z.url() }).safeParse(data);
      if (!parsed.success)
        throw new ProviderUnavailableError(
          'flutterwave POST /payments: no hosted link in the answer',
        );
      return { link: parsed.data.link };
    },

    authenticateWebhook: (rawBody, headers) =>
      authenticateFlutterwaveWebhook(rawBody, headers, options.webhookHash),

    parseWebhook: parseFlutterwaveWebhook,

    async verifyTransaction(transactionId) {
      const data = await call('GET', `/transactions/${encodeURIComponent(transactionId)}/verify`);
      return data == null ? null : toVerified(data);
    },

    async verifyByReference(txRef) {
      const data = await call(
        'GET',
        `/transactions/verify_by_reference?tx_ref=${encodeURIComponent(txRef)}`,
      );
      return data == null ? null : toVerified(data);
    },

    async refund(transactionId, amountMinor, currency) {
      const data = await call('POST', `/transactions/${encodeURIComponent(transactionId)}/refund`, {
        amount: minorToDecimalString(amountMinor, currency),
        comments: 'Lockdrop refund',
      });
      const refund = toProviderRefund(data);
      if (!refund) throw new ProviderUnavailableError('flutterwave refund: unreadable answer');
      return refund;
    },

    async findRefund(transactionId, providerRefundId, since) {
      if (providerRefundId) {
        const data = await call('GET', `/refunds/${encodeURIComponent(providerRefundId)}`);
        if (data == null) return null;
        // The record must be this transaction's: an id we hold for another one decides nothing.
        const owner = refundOwnerSchema.safeParse(data);
        if (!owner.success || owner.data.tx_id !== transactionId)
          throw new ProviderUnavailableError(
            `flutterwave refund ${providerRefundId} is not a refund of transaction ${transactionId}`,
          );
        return toProviderRefund(data);
      }
      // payments-contract §4 has no per-transaction refund lookup: every page of the list is
      // read and matched on `tx_id` exactly here — its filters may be ignored, so they only
      // narrow, never decide. A list we could not read to its end is an unknown, not a "none".
      const from = new Date(since.getTime() - 86_400_000).toISOString().slice(0, 10);
      const found = (await everyPage('/refunds', new URLSearchParams({ from }), refundOwnerSchema))
        .filter((record) => record.tx_id === transactionId)
        .map(toProviderRefund)
        .filter((refund): refund is ProviderRefund => refund !== null);
      // Several records for one transaction (a duplicate at the provider): the money went back
      // if any says so; failed only when every one of them failed.
      return (
        found.find((refund) => refund.status === 'succeeded') ??
        found.find((refund) => refund.status === 'pending') ??
        found[0] ??
        null
      );
    },

    async findDispute(transactionId) {
      // The transaction as the provider holds it (its flw_ref is the chargeback's key): a
      // dispute of a transaction the provider does not know is no dispute.
      const transaction = await call(
        'GET',
        `/transactions/${encodeURIComponent(transactionId)}/verify`,
      );
      if (transaction == null) return null;
      const flwRef = z.looseObject({ flw_ref: z.string().nullish() }).parse(transaction).flw_ref;
      const chargebacks = await everyPage(
        '/chargebacks',
        new URLSearchParams(flwRef ? { flw_ref: flwRef } : {}),
        chargebackSchema,
      );
      // The filter may be ignored: only an exact match on this transaction counts.
      const found: ProviderDispute[] = chargebacks
        .filter((chargeback) => {
          const txId = chargeback.tx_id ?? chargeback.transaction_id;
          return (
            txId === transactionId || (txId == null && flwRef && chargeback.flw_ref === flwRef)
          );
        })
        .map((chargeback) => ({
          disputeId: chargeback.id,
          transactionId,
          status: toDisputeStatus(chargeback.status),
        }));
      // The newest (highest id) dispute of the transaction is its current state.
      return found.sort((a, b) => Number(b.disputeId) - Number(a.disputeId))[0] ?? null;
    },

    async ensurePaymentPlan(plan) {
      const data = await call('POST', '/payment-plans', {
        amount: Number(minorToDecimalString(plan.amountMinor, plan.currency)),
        name: plan.name,
        interval: plan.interval,
        currency: plan.currency,
        duration: 0,
      });
      const parsed = z
        .looseObject({ id: z.union([z.number(), z.string()]).transform(String) })
        .safeParse(data);
      if (!parsed.success)
        throw new ProviderUnavailableError('flutterwave payment plan: unreadable answer');
      return parsed.data.id;
    },

    async cancelSubscription(ref) {
      await setSubscriptionState(ref, 'active', 'cancel');
    },

    async resumeSubscription(ref) {
      await setSubscriptionState(ref, 'cancelled', 'activate');
    },

    /**
     * What `GET /banks/NG` answers, cached. A seller filling in payout details must not meet an
     * empty bank menu because Flutterwave is slow or down: on an error, a timeout or an unreadable
     * answer the last list is served (however old), else the bundled list of real codes.
     */
    async listBanks() {
      if (bankList && now() - bankList.fetchedAt < bankListCacheMs) return bankList.banks;
      try {
        bankList = { banks: await fetchBanks(), fetchedAt: now() };
        return bankList.banks;
      } catch (error) {
        options.onBankListFallback?.(error, bankList ? 'stale' : 'bundled');
        return bankList ? bankList.banks : [...NIGERIAN_BANKS];
      }
    },

    async resolveBankAccount({ bankCode, accountNumber }) {
      try {
        const data = await call('POST', '/accounts/resolve', {
          account_number: accountNumber,
          account_bank: bankCode,
        });
        const parsed = z.looseObject({ account_name: z.string().min(1) }).safeParse(data);
        return parsed.success ? parsed.data.account_name : null;
      } catch (error) {
        // Flutterwave answers an unknown account with a 400 error envelope.
        if (error instanceof ProviderRejectedError) return null;
        throw error;
      }
    },
  };
}

import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Flutterwave v3 on real HTTP, faithful to payments-contract.md: the envelope, amounts in
 * major units, hosted link, verify by id and by reference, refunds, both webhook shapes and
 * both auth headers — plus switchable failure modes.
 */
/**
 * `5xx`: refuses before doing anything; `reject`: a 400 refusal; `refund_then_5xx`: refunds, then
 * answers 502 (our side cannot know); `pending`: accepted, completes later (`settleRefunds`);
 * `late_503`: Flutterwave at its worst (payments-contract shared rules) — works on it for
 * `lateMs` (28 s in production), answers 503, and the refund happened anyway; `duplicate`: the
 * provider books the refund twice (two records for one request).
 */
export type RefundMode =
  'none' | '5xx' | 'reject' | 'refund_then_5xx' | 'pending' | 'late_503' | 'duplicate';

/**
 * How `GET /v3/refunds` misbehaves: `ignoreFilters` answers every refund whatever `from`, `to`,
 * `status` or `currency` say; `pageSize` records per page, newest first, only the asked `page`
 * (page 1 when none is asked); `lookup: '5xx'` fails the list and `GET /v3/refunds/:id`;
 * `lags`: refunds made while it is on are missing from the list and the lookup (the provider's
 * read side behind its write side) until it is turned off — a refund made, and not yet shown.
 */
export interface RefundListBehaviour {
  ignoreFilters: boolean;
  pageSize: number;
  lookup: 'none' | '5xx';
  lags: boolean;
}

interface RefundRecord {
  id: number;
  tx_id: number;
  flw_ref: string;
  amount_refunded: number;
  status: 'completed' | 'pending' | 'failed';
  destination: string;
  meta: { source: string };
  created_at: string;
}

/** Made while the list lagged: not shown while it still lags (`RefundListBehaviour.lags`). */
const laggingRecords = new WeakSet<RefundRecord>();

export type VerifyFailure =
  'none' | '5xx' | 'timeout' | 'amount' | 'currency' | 'tx_ref' | 'pending';

interface PaymentIntent {
  txRef: string;
  amount: string;
  currency: string;
  email: string;
  redirectUrl: string;
  /** A payment plan id: paying subscribes the customer (payments-contract §7). */
  paymentPlan: number | null;
  /** Minutes the hosted page takes payment (payments-contract §1: top level or nested). */
  sessionDuration: number | null;
}

interface PaymentPlan {
  id: number;
  name: string;
  amount: number;
  interval: string;
  duration: number;
  status: 'active' | 'cancelled';
  currency: string;
  plan_token: string;
  created_at: string;
}

interface ProviderSubscription {
  id: number;
  amount: number;
  customer: { id: number; customer_email: string };
  plan: number;
  status: 'active' | 'cancelled';
  created_at: string;
}

interface Transaction {
  id: number;
  tx_ref: string;
  flw_ref: string;
  amount: number;
  currency: string;
  charged_amount: number;
  app_fee: number;
  merchant_fee: number;
  amount_settled: number;
  status: 'successful' | 'failed' | 'pending';
  payment_type: string;
  created_at: string;
  customer: { id: number; name: string; email: string; phone_number: null; created_at: string };
  payment_plan: number | null;
}

export interface FakeFlutterwave {
  baseUrl: string;
  secretKey: string;
  webhookHash: string;
  /** The settings that point payments at this fake. */
  env: Record<'PAYMENT_PROVIDER' | 'FLW_SECRET_KEY' | 'FLW_WEBHOOK_HASH' | 'FLW_BASE_URL', string>;
  intents: Map<string, PaymentIntent>;
  failures: {
    verify: VerifyFailure;
    payments: 'none' | '5xx' | 'timeout';
    /** `GET /v3/banks/NG`: a 5xx, an answer slower than the client waits, or a success with no list. */
    banks: 'none' | '5xx' | 'timeout' | 'garbage';
    refund: RefundMode;
    subscriptionFilters: 'honoured' | 'ignored';
  };
  /** How the refund list and lookup behave (a switch per misbehaviour). */
  refundList: RefundListBehaviour;
  /** Slower than the client's timeout, for the `timeout` modes. */
  slowMs: number;
  /** How long `late_503` works before its 503 (Flutterwave: 28 s). */
  lateMs: number;
  /** Subscriptions per page of `GET /v3/subscriptions` (the real API pages its lists). */
  subscriptionPageSize: number;
  requests: string[];
  /**
   * A misbehaviour for one transaction's verify only (by transaction id), over `failures.verify`:
   * one payment of a batch failing while the others verify.
   */
  verifyFailuresFor: Map<number, VerifyFailure>;
  /** Latency of every verify answer (the real API takes 100–500 ms); 0 by default. */
  verifyDelayMs: number;
  /** Verify requests being answered right now, and the most at once since the fake started. */
  verifyInFlight: { now: number; max: number };
  /** Each `GET /v3/refunds` as asked: its page and query (what our side read). */
  refundListReads: Array<{ page: number; query: string }>;
  refunds: Array<{ transactionId: number; amount: unknown }>;
  /** Refunds as the provider keeps them (GET /v3/refunds/:id, GET /v3/refunds). */
  refundRecords: Map<number, RefundRecord>;
  /** The provider finishes its pending refunds. */
  settleRefunds(status: 'completed' | 'failed'): void;
  /** Refunds of other merchants' transactions the provider also lists (newest first). */
  addOtherRefunds(count: number): void;
  /** A refund the provider holds for this transaction (e.g. made from its dashboard). */
  addRefundRecord(transactionId: number, status: 'completed' | 'pending' | 'failed'): number;
  /**
   * Every charge the provider holds (oldest first), whatever our side made of it: the truth to
   * count against where our own unique constraints would cap a count at one.
   */
  charges(txRef?: string): Transaction[];
  /** The buyer completes the hosted page: the transaction exists on the provider's side. */
  pay(
    txRef: string,
    options?: {
      status?: Transaction['status'];
      amount?: number;
      currency?: string;
      /** When the provider says the payment was made (default: now). */
      at?: Date;
    },
  ): Transaction;
  envelopeWebhook(transaction: Transaction): Record<string, unknown>;
  flatWebhook(transaction: Transaction): Record<string, unknown>;
  /**
   * A bank disputes the transaction (or the dispute moves on): the provider's chargeback record,
   * what `GET /v3/chargebacks` lists (same `refundList` paging and filter switches). Returns its id.
   */
  dispute(transactionId: number, status: string): number;
  /** Chargebacks as the provider keeps them. */
  chargebacks: Map<number, { id: number; tx_id: number; flw_ref: string; status: string }>;
  /** Each `GET /v3/chargebacks` as asked. */
  chargebackReads: string[];
  /** Payment plans created through POST /v3/payment-plans. */
  plans: Map<number, PaymentPlan>;
  /** Subscriptions: one per customer who paid under a plan. */
  subscriptions: Map<number, ProviderSubscription>;
  /**
   * The provider charges an active subscription on its own (a renewal): a new transaction with a
   * tx_ref of Flutterwave's making, under the plan. Throws when the subscription is cancelled.
   */
  renew(subscriptionId: number): Transaction;
  /** Both auth headers, as Flutterwave may send them. */
  signedHeaders(rawBody: string, secret?: string): Record<string, string>;
  close(): Promise<void>;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON request body
function sessionDurationOf(body: Record<string, any>): number | null | 'invalid' {
  const value =
    body.session_duration ??
    body.configurations?.session_duration ??
    body.configuration?.session_duration;
  if (value === undefined) return null;
  const minutes = Number(value);
  return Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440 ? minutes : 'invalid';
}

export interface FakeFlutterwaveOptions {
  /** Default a test key (`FLWSECK_TEST-…`); a live-looking key makes payments take live money. */
  secretKey?: string;
  /** Default the published example hash, which production refuses. */
  webhookHash?: string;
  /** `POST /v3/accounts/resolve` knows every 10-digit account (not only the contract's example). */
  resolveAnyAccount?: boolean;
}

export async function startFakeFlutterwave(
  options: FakeFlutterwaveOptions = {},
): Promise<FakeFlutterwave> {
  const secretKey = options.secretKey ?? 'FLWSECK_TEST-0123456789abcdef-X';
  const webhookHash = options.webhookHash ?? 'a-webhook-secret-hash';
  const intents = new Map<string, PaymentIntent>();
  const transactions = new Map<number, Transaction>();
  let nextId = 285_959_875;
  const fake = {
    failures: {
      verify: 'none' as VerifyFailure,
      payments: 'none' as 'none' | '5xx' | 'timeout',
      banks: 'none' as 'none' | '5xx' | 'timeout' | 'garbage',
      refund: 'none' as RefundMode,
      /**
       * `ignored`: `GET /v3/subscriptions` answers every subscription of the account whatever the
       * `email`, `plan` and `status` filters say (they are not in the contract as filters).
       */
      subscriptionFilters: 'honoured' as 'honoured' | 'ignored',
    },
    /** Subscriptions per page of `GET /v3/subscriptions`; `page` picks one, the first by default. */
    subscriptionPageSize: 10,
    slowMs: 1_500,
    lateMs: 100,
    verifyDelayMs: 0,
    verifyInFlight: { now: 0, max: 0 },
    refundList: {
      ignoreFilters: false,
      pageSize: 100,
      lookup: 'none',
      lags: false,
    } as RefundListBehaviour,
    refundListReads: [] as Array<{ page: number; query: string }>,
    requests: [] as string[],
    refunds: [] as Array<{ transactionId: number; amount: unknown }>,
  };
  const refundRecords = new Map<number, RefundRecord>();
  const plans = new Map<number, PaymentPlan>();
  const subscriptions = new Map<number, ProviderSubscription>();
  let nextPlanId = 51_000;
  let nextSubscriptionId = 4_100;

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const error = (response: http.ServerResponse, status: number, message: string) =>
    send(response, status, { status: 'error', message, data: null });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const verifyFailuresFor = new Map<number, VerifyFailure>();
  const verifyFailureOf = (transactionId: number | undefined): VerifyFailure =>
    (transactionId !== undefined && verifyFailuresFor.get(transactionId)) || fake.failures.verify;

  /** What verify reports, with the configured lie applied. */
  const reported = (transaction: Transaction): Transaction => {
    switch (verifyFailureOf(transaction.id)) {
      case 'amount':
        return {
          ...transaction,
          amount: round2(transaction.amount / 2),
          charged_amount: round2(transaction.amount / 2),
        };
      case 'currency':
        return { ...transaction, currency: transaction.currency === 'USD' ? 'NGN' : 'USD' };
      case 'tx_ref':
        return { ...transaction, tx_ref: `${transaction.tx_ref}-other` };
      case 'pending':
        return { ...transaction, status: 'pending' };
      default:
        return transaction;
    }
  };

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://fake');
    fake.requests.push(`${request.method} ${url.pathname}`);
    if (url.pathname.startsWith('/hosted/')) {
      // The hosted page: /hosted/pay/:txRef/:action redirects like Flutterwave.
      const [, , , txRef, action] = url.pathname.split('/');
      const intent = intents.get(decodeURIComponent(txRef ?? ''));
      if (!intent) return error(response, 404, 'Not found');
      const target = new URL(intent.redirectUrl);
      target.searchParams.set('tx_ref', intent.txRef);
      if (action === 'cancel') target.searchParams.set('status', 'cancelled');
      else {
        const transaction = api.pay(intent.txRef);
        target.searchParams.set('status', action === 'completed' ? 'completed' : 'successful');
        target.searchParams.set('transaction_id', String(transaction.id));
      }
      response.writeHead(302, { location: target.toString() });
      return response.end();
    }
    if (request.headers.authorization !== `Bearer ${secretKey}`)
      return error(response, 401, 'Invalid authorization key');
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;

    if (request.method === 'POST' && url.pathname === '/v3/payments') {
      if (fake.failures.payments === '5xx') return error(response, 503, 'Service unavailable');
      if (fake.failures.payments === 'timeout') await sleep(fake.slowMs);
      if (!body?.tx_ref || body.amount === undefined || !body.customer?.email)
        return error(response, 400, 'Validation error');
      const sessionDuration = sessionDurationOf(body);
      if (sessionDuration === 'invalid') return error(response, 400, 'Validation error');
      intents.set(body.tx_ref, {
        txRef: body.tx_ref,
        amount: String(body.amount),
        currency: body.currency ?? 'NGN',
        email: body.customer.email,
        redirectUrl: body.redirect_url,
        paymentPlan: body.payment_plan === undefined ? null : Number(body.payment_plan),
        sessionDuration,
      });
      return send(response, 200, {
        status: 'success',
        message: 'Hosted Link',
        data: { link: `${baseUrl}/hosted/pay/${encodeURIComponent(body.tx_ref)}` },
      });
    }

    if (request.method === 'POST' && url.pathname === '/v3/payment-plans') {
      if (!body?.amount || !body.name || !body.interval)
        return error(response, 400, 'Validation error');
      const plan: PaymentPlan = {
        id: nextPlanId++,
        name: body.name,
        amount: Number(body.amount),
        interval: body.interval,
        duration: body.duration ?? 0,
        status: 'active',
        currency: body.currency ?? 'NGN',
        plan_token: `rpp_${nextPlanId}`,
        created_at: new Date().toISOString(),
      };
      plans.set(plan.id, plan);
      return send(response, 200, {
        status: 'success',
        message: 'Payment plan created',
        data: plan,
      });
    }
    if (request.method === 'GET' && url.pathname === '/v3/subscriptions') {
      const email = url.searchParams.get('email');
      const plan = url.searchParams.get('plan');
      const status = url.searchParams.get('status');
      const honoured = fake.failures.subscriptionFilters === 'honoured';
      const matching = [...subscriptions.values()].filter(
        (subscription) =>
          !honoured ||
          ((!email || subscription.customer.customer_email === email) &&
            (!plan || String(subscription.plan) === plan) &&
            (!status || subscription.status === status)),
      );
      const size = fake.subscriptionPageSize;
      const totalPages = Math.max(1, Math.ceil(matching.length / size));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      return send(response, 200, {
        status: 'success',
        message: 'Plan subscriptions fetched',
        meta: {
          page_info: { total: matching.length, current_page: page, total_pages: totalPages },
        },
        data: matching.slice((page - 1) * size, page * size),
      });
    }
    const subscriptionChange = /^\/v3\/subscriptions\/(\d+)\/(cancel|activate)$/.exec(url.pathname);
    if (request.method === 'PUT' && subscriptionChange) {
      const subscription = subscriptions.get(Number(subscriptionChange[1]));
      if (!subscription) return error(response, 404, 'Subscription not found');
      subscription.status = subscriptionChange[2] === 'cancel' ? 'cancelled' : 'active';
      return send(response, 200, {
        status: 'success',
        message: `Subscription ${subscriptionChange[2] === 'cancel' ? 'cancelled' : 'activated'}`,
        data: { id: subscription.id, status: subscription.status },
      });
    }

    const verify = /^\/v3\/transactions\/(\d+)\/verify$/.exec(url.pathname);
    const byReference = url.pathname === '/v3/transactions/verify_by_reference';
    if (request.method === 'GET' && (verify || byReference)) {
      const transaction = verify
        ? transactions.get(Number(verify[1]))
        : [...transactions.values()]
            .reverse()
            .find((t) => t.tx_ref === url.searchParams.get('tx_ref'));
      const failure = verifyFailureOf(verify ? Number(verify[1]) : transaction?.id);
      fake.verifyInFlight.now++;
      fake.verifyInFlight.max = Math.max(fake.verifyInFlight.max, fake.verifyInFlight.now);
      try {
        if (fake.verifyDelayMs > 0) await sleep(fake.verifyDelayMs);
        if (failure === '5xx') return error(response, 500, 'Internal server error');
        if (failure === 'timeout') await sleep(fake.slowMs);
      } finally {
        fake.verifyInFlight.now--;
      }
      if (!transaction) return error(response, 400, 'No transaction was found for this id');
      return send(response, 200, {
        status: 'success',
        message: 'Transaction fetched successfully',
        data: reported(transaction),
      });
    }

    const refund = /^\/v3\/transactions\/(\d+)\/refund$/.exec(url.pathname);
    if (request.method === 'POST' && refund) {
      if (fake.failures.refund === '5xx') return error(response, 502, 'Bad gateway');
      if (fake.failures.refund === 'reject')
        return error(response, 400, 'Refund amount exceeds the transaction balance');
      const transaction = transactions.get(Number(refund[1]));
      if (!transaction || transaction.status !== 'successful')
        return error(response, 400, 'Transaction not found');
      if (fake.failures.refund === 'late_503') await sleep(fake.lateMs);
      fake.refunds.push({ transactionId: transaction.id, amount: body?.amount });
      const record = addRecord(
        transaction.id,
        Number(body?.amount ?? transaction.amount),
        fake.failures.refund === 'pending' ? 'pending' : 'completed',
      );
      if (fake.failures.refund === 'duplicate')
        addRecord(transaction.id, record.amount_refunded, 'completed');
      if (fake.failures.refund === 'refund_then_5xx') return error(response, 502, 'Bad gateway');
      if (fake.failures.refund === 'late_503')
        return error(response, 503, 'Service unavailable, please retry');
      return send(response, 200, {
        status: 'success',
        message: 'Transaction refund initiated',
        data: record,
      });
    }
    const oneRefund = /^\/v3\/refunds\/(\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && oneRefund) {
      if (fake.refundList.lookup === '5xx') return error(response, 503, 'Service unavailable');
      const record = refundRecords.get(Number(oneRefund[1]));
      return record && shown(record)
        ? send(response, 200, { status: 'success', message: 'Refund fetched', data: record })
        : error(response, 404, 'Refund not found');
    }
    if (request.method === 'GET' && url.pathname === '/v3/refunds') {
      const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
      fake.refundListReads.push({ page, query: url.search });
      if (fake.refundList.lookup === '5xx') return error(response, 503, 'Service unavailable');
      const from = url.searchParams.get('from');
      const to = url.searchParams.get('to');
      const status = url.searchParams.get('status');
      const matching = [...refundRecords.values()]
        .reverse()
        .filter(shown)
        .filter(
          (record) =>
            fake.refundList.ignoreFilters ||
            ((!from || record.created_at.slice(0, 10) >= from) &&
              (!to || record.created_at.slice(0, 10) <= to) &&
              (!status || record.status === status)),
        );
      const size = fake.refundList.pageSize;
      const totalPages = Math.max(1, Math.ceil(matching.length / size));
      return send(response, 200, {
        status: 'success',
        message: 'Refunds fetched',
        meta: {
          page_info: { total: matching.length, current_page: page, total_pages: totalPages },
        },
        data: matching.slice((page - 1) * size, page * size),
      });
    }
    if (request.method === 'GET' && url.pathname === '/v3/chargebacks') {
      chargebackReads.push(url.search);
      if (fake.refundList.lookup === '5xx') return error(response, 503, 'Service unavailable');
      const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
      const flwRef = url.searchParams.get('flw_ref');
      const matching = [...chargebacks.values()]
        .reverse()
        .filter(
          (chargeback) => fake.refundList.ignoreFilters || !flwRef || chargeback.flw_ref === flwRef,
        );
      const size = fake.refundList.pageSize;
      return send(response, 200, {
        status: 'success',
        message: 'Chargebacks fetched',
        meta: {
          page_info: {
            total: matching.length,
            current_page: page,
            total_pages: Math.max(1, Math.ceil(matching.length / size)),
          },
        },
        data: matching.slice((page - 1) * size, page * size),
      });
    }
    if (request.method === 'GET' && url.pathname === '/v3/banks/NG') {
      if (fake.failures.banks === '5xx') return error(response, 503, 'Service unavailable');
      if (fake.failures.banks === 'timeout') await sleep(fake.slowMs);
      if (fake.failures.banks === 'garbage')
        return send(response, 200, { status: 'success', message: 'ok', data: null });
      // Unsorted, with numeric ids and a numeric code, as the real list comes.
      return send(response, 200, {
        status: 'success',
        message: 'Banks fetched successfully',
        data: [
          { id: 133, code: '058', name: 'Guaranty Trust Bank' },
          { id: 132, code: '044', name: 'Access Bank' },
          { id: 688, code: 50515, name: 'Moniepoint MFB' },
        ],
      });
    }
    if (request.method === 'POST' && url.pathname === '/v3/accounts/resolve') {
      if (options.resolveAnyAccount && /^\d{10}$/.test(String(body?.account_number ?? '')))
        return send(response, 200, {
          status: 'success',
          message: 'Account details fetched',
          data: { account_number: body.account_number, account_name: 'ADA OKAFOR' },
        });
      if (body?.account_number === '0690000032' && body?.account_bank === '044')
        return send(response, 200, {
          status: 'success',
          message: 'Account details fetched',
          data: { account_number: '0690000032', account_name: 'Pastor Bright' },
        });
      return error(
        response,
        400,
        'Sorry, that account number is invalid, please check and try again',
      );
    }
    return error(response, 404, 'Not found');
  });
  function addRecord(
    transactionId: number,
    amount: number,
    status: RefundRecord['status'],
  ): RefundRecord {
    const record: RefundRecord = {
      id: nextRefundId++,
      tx_id: transactionId,
      flw_ref: `URF_${nextRefundId}`,
      amount_refunded: amount,
      status,
      destination: 'payment_source',
      meta: { source: 'availablebalance' },
      created_at: new Date().toISOString(),
    };
    refundRecords.set(record.id, record);
    if (fake.refundList.lags) laggingRecords.add(record);
    return record;
  }
  /** Whether the provider's read side shows this refund yet. */
  function shown(record: RefundRecord): boolean {
    return !(fake.refundList.lags && laggingRecords.has(record));
  }
  let nextRefundId = 8613;
  const chargebacks = new Map<
    number,
    { id: number; tx_id: number; flw_ref: string; status: string }
  >();
  const chargebackReads: string[] = [];
  let nextChargebackId = 900;

  /** Records a transaction as the provider holds it (what verify reports). */
  function record(charge: {
    txRef: string;
    amount: number;
    currency: string;
    email: string;
    paymentPlan: number | null;
    status: Transaction['status'];
    at?: Date;
  }): Transaction {
    // Local card fee: 1.4% (payments-contract §9); settled = amount − fee − 7.5% VAT on the fee.
    const appFee = round2(charge.amount * 0.014);
    const transaction: Transaction = {
      id: nextId++,
      tx_ref: charge.txRef,
      flw_ref: `FLW-MOCK-${nextId}`,
      amount: charge.amount,
      currency: charge.currency,
      charged_amount: charge.amount,
      app_fee: appFee,
      merchant_fee: 0,
      amount_settled: round2(charge.amount - appFee - appFee * 0.075),
      status: charge.status,
      payment_type: 'card',
      created_at: (charge.at ?? new Date()).toISOString(),
      customer: {
        id: 215_604_089,
        name: 'Ada',
        email: charge.email,
        phone_number: null,
        created_at: new Date().toISOString(),
      },
      payment_plan: charge.paymentPlan,
    };
    transactions.set(transaction.id, transaction);
    return transaction;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api: FakeFlutterwave = {
    baseUrl: `${baseUrl}/v3`,
    secretKey,
    webhookHash,
    env: {
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: secretKey,
      FLW_WEBHOOK_HASH: webhookHash,
      FLW_BASE_URL: `${baseUrl}/v3`,
    },
    intents,
    plans,
    subscriptions,
    renew(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription || subscription.status !== 'active')
        throw new Error(`subscription ${subscriptionId} is not active`);
      const plan = plans.get(subscription.plan)!;
      return record({
        txRef: `rpp_renewal_${nextId}`,
        amount: plan.amount,
        currency: plan.currency,
        email: subscription.customer.customer_email,
        paymentPlan: plan.id,
        status: 'successful',
      });
    },
    get failures() {
      return fake.failures;
    },
    get refundList() {
      return fake.refundList;
    },
    refundListReads: fake.refundListReads,
    get lateMs() {
      return fake.lateMs;
    },
    set lateMs(value: number) {
      fake.lateMs = value;
    },
    addOtherRefunds(count) {
      // Sequential ids (like Flutterwave's): other transactions, close to ours but never equal.
      for (let index = 0; index < count; index++)
        addRecord(nextId + 10_000 + index, 100, 'completed');
    },
    addRefundRecord: (transactionId, status) => addRecord(transactionId, 5000, status).id,
    chargebacks,
    chargebackReads,
    dispute(transactionId, status) {
      const transaction = transactions.get(transactionId);
      if (!transaction) throw new Error(`no transaction ${transactionId}`);
      const existing = [...chargebacks.values()].find((c) => c.tx_id === transactionId);
      if (existing) {
        existing.status = status;
        return existing.id;
      }
      const chargeback = {
        id: nextChargebackId++,
        tx_id: transactionId,
        flw_ref: transaction.flw_ref,
        status,
      };
      chargebacks.set(chargeback.id, chargeback);
      return chargeback.id;
    },
    get slowMs() {
      return fake.slowMs;
    },
    verifyFailuresFor,
    get verifyDelayMs() {
      return fake.verifyDelayMs;
    },
    set verifyDelayMs(value: number) {
      fake.verifyDelayMs = value;
    },
    verifyInFlight: fake.verifyInFlight,
    get subscriptionPageSize() {
      return fake.subscriptionPageSize;
    },
    set subscriptionPageSize(value: number) {
      fake.subscriptionPageSize = value;
    },
    set slowMs(value: number) {
      fake.slowMs = value;
    },
    requests: fake.requests,
    refunds: fake.refunds,
    refundRecords,
    settleRefunds(status) {
      for (const record of refundRecords.values())
        if (record.status === 'pending') record.status = status;
    },
    charges: (txRef) =>
      [...transactions.values()].filter((charge) => txRef === undefined || charge.tx_ref === txRef),
    pay(txRef, options = {}) {
      const intent = intents.get(txRef);
      if (!intent && options.amount === undefined)
        throw new Error(`no payment intent for ${txRef}`);
      const status = options.status ?? 'successful';
      const transaction = record({
        txRef,
        amount: options.amount ?? Number(intent!.amount),
        currency: options.currency ?? intent?.currency ?? 'NGN',
        email: intent?.email ?? 'buyer@example.com',
        paymentPlan: intent?.paymentPlan ?? null,
        status,
        at: options.at,
      });
      // Paying under a plan subscribes the customer (once per customer and plan).
      const plan = intent?.paymentPlan ? plans.get(intent.paymentPlan) : undefined;
      const subscribed = [...subscriptions.values()].some(
        (existing) =>
          existing.plan === plan?.id && existing.customer.customer_email === intent?.email,
      );
      if (plan && status === 'successful' && !subscribed) {
        const subscription: ProviderSubscription = {
          id: nextSubscriptionId++,
          amount: plan.amount,
          customer: { id: 215_604_089, customer_email: intent!.email },
          plan: plan.id,
          status: 'active',
          created_at: new Date().toISOString(),
        };
        subscriptions.set(subscription.id, subscription);
      }
      return transaction;
    },
    envelopeWebhook: (transaction) => ({
      event: 'charge.completed',
      'event.type': 'CARD_TRANSACTION',
      data: {
        ...transaction,
        processor_response: 'Approved',
        auth_model: 'PIN',
        narration: 'CARD Transaction ',
      },
      meta_data: {},
    }),
    flatWebhook: (transaction) => ({
      id: transaction.id,
      txRef: transaction.tx_ref,
      flwRef: transaction.flw_ref,
      orderRef: 'URF_1',
      amount: transaction.amount,
      charged_amount: transaction.charged_amount,
      appfee: transaction.app_fee,
      status: transaction.status,
      currency: transaction.currency,
      customer: { fullName: 'Ada', email: transaction.customer.email },
      entity: {},
      'event.type': 'CARD_TRANSACTION',
    }),
    signedHeaders: (rawBody, secret = webhookHash) => ({
      'content-type': 'application/json',
      'verif-hash': secret,
      'flutterwave-signature': createHmac('sha256', secret).update(rawBody).digest('base64'),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}

import type { Pool } from '@lockdrop/db';
import { bpsOfMinor } from '@lockdrop/plans';
import { minorToDecimalString } from '@lockdrop/money';
import {
  authenticateFlutterwaveWebhook,
  parseFlutterwaveWebhook,
  webhookSignature,
} from './flutterwave-webhook.js';
import { ProviderRejectedError, type PaymentProvider, type VerifiedTransaction } from './types.js';
import type { BillingInterval } from '@lockdrop/contracts';
import { NIGERIAN_BANKS } from './nigerian-banks.js';

export interface SandboxOptions {
  pool: Pool;
  publicUrl: string;
  webhookSecret: string;
  processorFeeBps: number;
  /** Resolved per delivery: the process may learn its own address only after listening. */
  webhookUrl: () => string;
  /** Delays before re-sending a webhook that did not get a 200 (Flutterwave: 3 retries). */
  retryDelaysMs?: number[];
  logger: { warn(object: object, message: string): void };
}

export interface SandboxPayment {
  txRef: string;
  transactionId: string | null;
  amountMinor: number;
  currency: string;
  buyerEmail: string;
  title: string;
  redirectUrl: string;
  /** `pending`: a bank transfer the buyer chose and has not made yet (no money has moved). */
  status: 'initiated' | 'pending' | 'successful' | 'failed' | 'cancelled';
  /** Flutterwave's `payment_type`: `card`, or `bank_transfer` once the buyer chose to transfer. */
  paymentType: 'card' | 'bank_transfer';
  appFeeMinor: number | null;
  completedAt: Date | null;
  /** Set when paying starts a subscription: the page offers Subscribe. */
  billingInterval: BillingInterval | null;
  /** The "card on file" a paid subscription leaves, which renewals charge. */
  subscriptionToken: string | null;
  /** The customizations checkout asked for (Flutterwave's `title` and `logo`); null: Lockdrop. */
  brand: { name: string; logoUrl: string | null } | null;
}

/**
 * The buyer's buttons: pay by card (or, once a transfer is pending, the transfer arriving), fail,
 * cancel, or pay by bank transfer — which leaves the payment pending at the provider until the
 * transfer arrives or fails, as a real bank transfer or USSD payment does.
 */
export type SandboxOutcome = 'pay' | 'fail' | 'cancel' | 'transfer';

export interface Sandbox {
  provider: PaymentProvider;
  find(txRef: string): Promise<SandboxPayment | null>;
  /** The buyer pressed a button: settle on the "provider side", send the webhook, say where to go. */
  complete(txRef: string, outcome: SandboxOutcome): Promise<{ redirectTo: string } | null>;
  /** Test control: the next renewal charge of this subscription is declined. */
  failNextCharge(subscriptionToken: string): Promise<void>;
  /**
   * Demo/test control (no route: a public one would be the very forgery it guards against): the
   * buyer's bank disputes a paid transaction, or the dispute moves on (`won`, `lost`). Records it
   * on the "provider side" and sends the signed `charge.dispute` webhook. False when unknown.
   */
  dispute(transactionId: string, status: 'open' | 'won' | 'lost'): Promise<boolean>;
  /** Cancels pending retries and waits for deliveries in flight. */
  stop(): Promise<void>;
}

interface Row {
  tx_ref: string;
  transaction_id: number | null;
  amount_minor: number;
  currency: string;
  buyer_email: string;
  title: string;
  redirect_url: string;
  status: SandboxPayment['status'];
  payment_type: SandboxPayment['paymentType'];
  app_fee_minor: number | null;
  completed_at: Date | null;
  billing_interval: BillingInterval | null;
  subscription_token: string | null;
  brand_title: string | null;
  brand_logo_url: string | null;
}

const toPayment = (row: Row): SandboxPayment => ({
  txRef: row.tx_ref,
  transactionId: row.transaction_id === null ? null : String(row.transaction_id),
  amountMinor: row.amount_minor,
  currency: row.currency,
  buyerEmail: row.buyer_email,
  title: row.title,
  redirectUrl: row.redirect_url,
  status: row.status,
  paymentType: row.payment_type,
  appFeeMinor: row.app_fee_minor,
  completedAt: row.completed_at,
  billingInterval: row.billing_interval,
  subscriptionToken: row.subscription_token,
  brand: row.brand_title ? { name: row.brand_title, logoUrl: row.brand_logo_url } : null,
});

const toVerified = (payment: SandboxPayment): VerifiedTransaction => ({
  transactionId: payment.transactionId!,
  txRef: payment.txRef,
  status:
    payment.status === 'successful' || payment.status === 'failed' ? payment.status : 'pending',
  amountMinor: payment.amountMinor,
  currency: payment.currency,
  processorFeeMinor: payment.appFeeMinor,
  paidAt: payment.completedAt,
  providerSubscriptionId: payment.subscriptionToken,
  customerEmail: payment.buyerEmail,
});

const SANDBOX_HOLDERS = ['ADA OKAFOR', 'TUNDE BAKARE', 'NGOZI EZE', 'EMEKA OBI', 'FUNMI ADEYEMI'];

/**
 * A test-mode provider living in this service: a hosted checkout page, a provider-side record of
 * each payment, Flutterwave-shaped signed webhooks posted over HTTP to the real webhook endpoint,
 * and a verify API. It needs no keys, so it is the default.
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const { pool } = options;
  const retryDelays = options.retryDelaysMs ?? [1_000, 5_000, 15_000];
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const find = async (txRef: string) => {
    const { rows } = await pool.query<Row>('SELECT * FROM sandbox_payments WHERE tx_ref = $1', [
      txRef,
    ]);
    return rows[0] ? toPayment(rows[0]) : null;
  };

  const webhookBody = (payment: SandboxPayment) => {
    const major = (minor: number) => Number(minorToDecimalString(minor, payment.currency));
    const transfer = payment.paymentType === 'bank_transfer';
    return {
      // Flutterwave sends charge.completed for pending transfers too: data.status says which.
      event: 'charge.completed',
      'event.type': transfer ? 'BANK_TRANSFER_TRANSACTION' : 'CARD_TRANSACTION',
      data: {
        id: Number(payment.transactionId),
        tx_ref: payment.txRef,
        flw_ref: `SANDBOX-${payment.transactionId}`,
        amount: major(payment.amountMinor),
        currency: payment.currency,
        charged_amount: major(payment.amountMinor),
        app_fee: major(payment.appFeeMinor ?? 0),
        status: payment.status,
        payment_type: payment.paymentType,
        created_at: (payment.completedAt ?? new Date()).toISOString(),
        customer: { email: payment.buyerEmail },
      },
    };
  };

  const deliver = (payment: SandboxPayment, attempt: number): void =>
    deliverBody(payment.txRef, webhookBody(payment), attempt);

  const deliverBody = (txRef: string, body: unknown, attempt: number): void => {
    if (stopped) return;
    const raw = Buffer.from(JSON.stringify(body));
    const delivery = (async () => {
      let status = 0;
      try {
        const response = await fetch(options.webhookUrl(), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'verif-hash': options.webhookSecret,
            'flutterwave-signature': webhookSignature(raw, options.webhookSecret),
          },
          body: raw,
          signal: AbortSignal.timeout(60_000),
        });
        status = response.status;
        await response.body?.cancel();
      } catch (error) {
        options.logger.warn(
          { txRef, err: (error as Error).message },
          'sandbox webhook not delivered',
        );
      }
      const delay = retryDelays[attempt];
      if (status !== 200 && delay !== undefined && !stopped) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          deliverBody(txRef, body, attempt + 1);
        }, delay);
        timers.add(timer);
      }
    })();
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };

  const provider: PaymentProvider = {
    name: 'sandbox',
    testMode: true,

    async createPaymentLink(request) {
      await pool.query(
        `INSERT INTO sandbox_payments (tx_ref, amount_minor, currency, buyer_email, title, redirect_url, status,
           billing_interval, expires_at, brand_title, brand_logo_url)
         VALUES ($1, $2, $3, $4, $5, $6, 'initiated', $7, now() + make_interval(mins => $8::int), $9, $10)`,
        [
          request.txRef,
          request.amountMinor,
          request.currency,
          request.buyerEmail,
          request.productTitle,
          request.redirectUrl,
          request.recurring?.interval ?? null,
          request.sessionMinutes ?? null,
          request.brand?.name ?? null,
          request.brand?.logoUrl ?? null,
        ],
      );
      return { link: `${options.publicUrl}/sandbox/checkout/${encodeURIComponent(request.txRef)}` };
    },

    authenticateWebhook: (rawBody, headers) =>
      authenticateFlutterwaveWebhook(rawBody, headers, options.webhookSecret),

    parseWebhook: parseFlutterwaveWebhook,

    async verifyTransaction(transactionId) {
      if (!/^\d{1,18}$/.test(transactionId)) return null;
      const { rows } = await pool.query<Row>(
        'SELECT * FROM sandbox_payments WHERE transaction_id = $1',
        [transactionId],
      );
      return rows[0] ? toVerified(toPayment(rows[0])) : null;
    },

    async verifyByReference(txRef) {
      const payment = await find(txRef);
      return payment?.transactionId ? toVerified(payment) : null;
    },

    async refund(transactionId, amountMinor) {
      const { rowCount } = await pool.query(
        `UPDATE sandbox_payments SET refunded_minor = refunded_minor + $2
         WHERE transaction_id = $1 AND status = 'successful' AND refunded_minor + $2 <= amount_minor`,
        [transactionId, amountMinor],
      );
      if (!rowCount)
        throw new ProviderRejectedError(`sandbox: transaction ${transactionId} cannot be refunded`);
      return {
        providerRefundId: `SANDBOX-REFUND-${transactionId}`,
        status: 'succeeded',
        failureReason: null,
      };
    },

    async findDispute(transactionId) {
      if (!/^\d{1,18}$/.test(transactionId)) return null;
      const { rows } = await pool.query<{ status: 'open' | 'won' | 'lost' | null }>(
        'SELECT dispute_status AS status FROM sandbox_payments WHERE transaction_id = $1',
        [transactionId],
      );
      const status = rows[0]?.status;
      return status
        ? { disputeId: `SANDBOX-DISPUTE-${transactionId}`, transactionId, status }
        : null;
    },

    async findRefund(transactionId) {
      if (!/^\d{1,18}$/.test(transactionId)) return null;
      const { rows } = await pool.query<{ refunded: number }>(
        'SELECT refunded_minor AS refunded FROM sandbox_payments WHERE transaction_id = $1',
        [transactionId],
      );
      return rows[0] && rows[0].refunded > 0
        ? {
            providerRefundId: `SANDBOX-REFUND-${transactionId}`,
            status: 'succeeded',
            failureReason: null,
          }
        : null;
    },

    /**
     * Charges the card a paid subscription left on file, once per `txRef` (a retried tick gets
     * the same result), declining it when the test control asked for that, and notifies us by
     * webhook as for any payment.
     */
    async chargeSubscription(request) {
      const existing = await find(request.txRef);
      if (existing?.transactionId) return toVerified(existing);
      const { rows: cards } = await pool.query<{ fail: boolean }>(
        `WITH card AS (
           SELECT tx_ref, fail_next_charge FROM sandbox_payments WHERE subscription_token = $1 FOR UPDATE)
         UPDATE sandbox_payments s SET fail_next_charge = false FROM card
         WHERE s.tx_ref = card.tx_ref RETURNING card.fail_next_charge AS fail`,
        [request.providerSubscriptionId],
      );
      if (!cards[0]) throw new ProviderRejectedError('sandbox: no such subscription');
      const status = cards[0].fail ? 'failed' : 'successful';
      const { rows } = await pool.query<Row>(
        `INSERT INTO sandbox_payments (tx_ref, transaction_id, amount_minor, currency, buyer_email, title, redirect_url,
           status, app_fee_minor, completed_at)
         VALUES ($1, nextval('sandbox_transaction_ids'), $2, $3, $4, $5, '', $6, $7, now())
         ON CONFLICT (tx_ref) DO NOTHING RETURNING *`,
        [
          request.txRef,
          request.amountMinor,
          request.currency,
          request.buyerEmail,
          request.title,
          status,
          status === 'successful' ? bpsOfMinor(request.amountMinor, options.processorFeeBps) : 0,
        ],
      );
      const payment = rows[0] ? toPayment(rows[0]) : await find(request.txRef);
      if (!payment?.transactionId) throw new Error('sandbox: renewal charge was not recorded');
      if (rows[0]) deliver(payment, 0);
      return toVerified(payment);
    },

    // The sandbox charges nothing on its own: our clock asks it to, and stops asking.
    cancelSubscription: () => Promise.resolve(),
    resumeSubscription: () => Promise.resolve(),

    listBanks: () => Promise.resolve([...NIGERIAN_BANKS]),

    /** Any known bank and 10 digits resolve to a made-up holder, except numbers ending in 9999. */
    resolveBankAccount({ bankCode, accountNumber }) {
      const known = NIGERIAN_BANKS.some((bank) => bank.code === bankCode);
      if (!known || !/^\d{10}$/.test(accountNumber) || accountNumber.endsWith('9999'))
        return Promise.resolve(null);
      const holder = SANDBOX_HOLDERS[Number(accountNumber.slice(-2)) % SANDBOX_HOLDERS.length]!;
      return Promise.resolve(holder);
    },
  };

  return {
    provider,
    find,

    async complete(txRef, outcome) {
      const payment = await find(txRef);
      if (!payment) return null;
      const back = (status: string, transactionId: string | null) => {
        // A cancel returns to the site the buyer came from, as the success does (a store's domain).
        const target = new URL(
          status === 'cancelled' ? '/payment/cancel' : payment.redirectUrl,
          payment.redirectUrl,
        );
        target.searchParams.set('status', status);
        target.searchParams.set('tx_ref', txRef);
        if (transactionId) target.searchParams.set('transaction_id', transactionId);
        return { redirectTo: target.toString() };
      };
      // A second press (back button, double submit) lands where the first one did; no second charge.
      if (payment.status === 'successful') return back('successful', payment.transactionId);
      if (outcome === 'cancel') {
        await pool.query(
          `UPDATE sandbox_payments SET status = 'cancelled' WHERE tx_ref = $1 AND status = 'initiated'`,
          [txRef],
        );
        return back('cancelled', null);
      }
      const status =
        outcome === 'pay' ? 'successful' : outcome === 'transfer' ? 'pending' : 'failed';
      // A pending transfer that arrives or fails is the same transaction; anything else is a new one.
      const { rows } = await pool.query<Row>(
        `UPDATE sandbox_payments
         SET status = $2,
             transaction_id = CASE WHEN status = 'pending' THEN transaction_id
               ELSE nextval('sandbox_transaction_ids') END,
             payment_type = CASE WHEN $2 = 'pending' THEN 'bank_transfer' ELSE payment_type END,
             app_fee_minor = $3,
             completed_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END,
             subscription_token = CASE WHEN $2 = 'successful' AND billing_interval IS NOT NULL
               THEN 'sbx_sub_' || md5(random()::text || clock_timestamp()::text) END
         WHERE tx_ref = $1
           AND (status IN ('initiated', 'failed', 'cancelled') OR (status = 'pending' AND $2 <> 'pending'))
           AND (expires_at IS NULL OR expires_at > now())
         RETURNING *`,
        [
          txRef,
          status,
          status === 'successful' ? bpsOfMinor(payment.amountMinor, options.processorFeeBps) : 0,
        ],
      );
      const completed = rows[0] ? toPayment(rows[0]) : await find(txRef);
      if (!completed) return null;
      // Like a provider's session_duration: an expired page takes no payment.
      if (!rows[0] && completed.status !== 'successful' && completed.status !== 'pending')
        return back('cancelled', null);
      if (rows[0]) deliver(completed, 0);
      return back(completed.status, completed.transactionId);
    },

    async failNextCharge(subscriptionToken) {
      await pool.query(
        'UPDATE sandbox_payments SET fail_next_charge = true WHERE subscription_token = $1',
        [subscriptionToken],
      );
    },

    async dispute(transactionId, status) {
      if (!/^\d{1,18}$/.test(transactionId)) return false;
      const { rows } = await pool.query<Row>(
        `UPDATE sandbox_payments SET dispute_status = $2
         WHERE transaction_id = $1 AND status = 'successful' RETURNING *`,
        [transactionId, status],
      );
      if (!rows[0]) return false;
      deliverBody(
        rows[0].tx_ref,
        {
          event: 'charge.dispute',
          data: {
            id: `SANDBOX-DISPUTE-${transactionId}`,
            transaction_id: Number(transactionId),
            tx_ref: rows[0].tx_ref,
            status,
          },
        },
        0,
      );
      return true;
    },

    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}

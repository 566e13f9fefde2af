import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** A charge as the provider holds it (Flutterwave's transaction, amounts in major units). */
export interface ProviderCharge {
  id: number;
  tx_ref: string;
  amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  customer: { email: string };
  /** The payment plan it was charged under (a subscription's first charge and its renewals). */
  payment_plan: number | null;
}

export interface ProviderSubscription {
  id: number;
  plan: number;
  customer: { customer_email: string };
  status: 'active' | 'cancelled';
}

export interface ProviderTransfer {
  id: number;
  reference: string;
  amount: number;
  currency: string;
  status: 'NEW' | 'PENDING' | 'SUCCESSFUL' | 'FAILED';
}

/** The provider's own records, read over HTTP: what the chaos invariants count. */
export interface ProviderState {
  charges: ProviderCharge[];
  subscriptions: ProviderSubscription[];
  transfers: ProviderTransfer[];
  chargebacks: Array<{ id: number; tx_id: number; status: string }>;
  /** Every refund record the provider holds (ours and other merchants'). */
  refunds: ProviderRefund[];
  /** Each refund request the provider acted on (moved money for), in order. */
  refundRequests: Array<{ transactionId: number; amount: unknown }>;
}

export interface ProviderRefund {
  id: number;
  tx_id: number;
  amount_refunded: number;
  status: 'completed' | 'pending' | 'failed';
}

/** A notification the provider sends: its exact bytes and signature headers. */
export interface ProviderWebhook {
  raw: string;
  headers: Record<string, string>;
}

/** The switches of support/flutterwave-process.ts `/control/faults` (each optional). */
export interface ProviderFaults {
  payments?: {
    verify?: 'none' | '5xx' | 'timeout' | 'amount' | 'currency' | 'tx_ref' | 'pending';
    payments?: 'none' | '5xx' | 'timeout';
    refund?: 'none' | '5xx' | 'reject' | 'refund_then_5xx' | 'pending' | 'late_503' | 'duplicate';
    /** `ignored`: `GET /v3/subscriptions` lists every subscription whatever its filters say. */
    subscriptionFilters?: 'honoured' | 'ignored';
  };
  subscriptionPageSize?: number;
  refundList?: {
    ignoreFilters?: boolean;
    pageSize?: number;
    lookup?: 'none' | '5xx';
    /** Refunds made while on are missing from the list and the lookup until it is off. */
    lags?: boolean;
  };
  lateMs?: number;
  transfers?: {
    create?: TransferCreateFault;
    /** One fault per coming create call, before `create` applies again. */
    nextCreates?: TransferCreateFault[];
    lookups?: 'none' | '5xx';
    /** `GET /v3/transfers?reference=` answers every transfer, page by page. */
    ignoreReferenceFilter?: boolean;
    pageSize?: number;
    /** The list shows no transfer at all yet (it lags behind the transfers made). */
    listsLag?: boolean;
    /** How long `made_then_5xx` works before its 503 (Flutterwave: 28 s). */
    lateMs?: number;
    /** The bank's SUCCESSFUL this long after a transfer is made; null: only when told. */
    completeAfterMs?: number | null;
  };
}
export type TransferCreateFault =
  '5xx' | 'made_then_5xx' | 'completes_at_once' | '429' | 'refused' | 'none';

/**
 * Flutterwave at its worst, in a process of its own (support/flutterwave-process.ts): the
 * cluster's payments and worker use it through `env`, the test through these calls.
 */
export interface FlutterwaveProvider {
  /** `…/v3`: FLW_BASE_URL. */
  baseUrl: string;
  /** What points payments (charges, plans, refunds) and the worker (transfers) at it: live keys. */
  env: Record<string, string>;
  /** The buyer pays on the hosted page: the provider's transaction and its notification. */
  pay(
    txRef: string,
    options?: { amount?: number; currency?: string; status?: ProviderCharge['status'] },
  ): Promise<{ transaction: ProviderCharge; webhook: ProviderWebhook }>;
  /** The provider charges a subscription on its own schedule (a renewal). */
  renew(subscriptionId: number): Promise<{ transaction: ProviderCharge; webhook: ProviderWebhook }>;
  /** A bank disputes a transaction: the provider's chargeback record and its notification. */
  dispute(transactionId: number, status: string): Promise<{ id: number; webhook: ProviderWebhook }>;
  faults(patch: ProviderFaults): Promise<unknown>;
  /** The bank's word on a transfer, and the `transfer.completed` notification the provider sends. */
  completeTransfer(
    reference: string,
    outcome: 'SUCCESSFUL' | 'FAILED',
  ): Promise<{ webhook: ProviderWebhook }>;
  /** Transfers of other merchants, so a lookup has pages to read. */
  addOtherTransfers(count: number): Promise<void>;
  /** Refunds of other merchants' transactions, so the refund list has pages to read. */
  addOtherRefunds(count: number): Promise<void>;
  /** The notification the provider sends about one of its refunds (`refund.<status>`). */
  refundNotice(refundId: number): Promise<{ webhook: ProviderWebhook }>;
  state(): Promise<ProviderState>;
  stop(): Promise<void>;
}

export async function startFlutterwaveProvider(): Promise<FlutterwaveProvider> {
  // A live-looking key (no `FLWSECK_TEST-`): payments takes live money, so its payouts go to
  // this provider's transfers rather than the sandbox (issue 30 item 5).
  const secretKey = `FLWSECK-chaos${randomBytes(12).toString('hex')}-X`;
  const webhookHash = randomBytes(24).toString('base64url');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'flutterwave-process.ts')],
    {
      cwd: path.join(import.meta.dirname, '..', '..', '..'),
      env: { ...process.env, FLW_SECRET_KEY: secretKey, FLW_WEBHOOK_HASH: webhookHash },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the Flutterwave fake did not start:\n${output}`)),
      30_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /flutterwave fake listening on (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Flutterwave fake exited (${code}):\n${output}`));
    });
  });
  const origin = `http://127.0.0.1:${port}`;
  const call = async <T>(method: 'GET' | 'POST', pathname: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${origin}${pathname}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok)
      throw new Error(`flutterwave fake ${pathname}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const baseUrl = `${origin}/v3`;
  return {
    baseUrl,
    env: {
      PAYMENT_PROVIDER: 'flutterwave',
      FLW_SECRET_KEY: secretKey,
      FLW_WEBHOOK_HASH: webhookHash,
      FLW_BASE_URL: baseUrl,
      PAYOUT_PROVIDER: 'live',
      // Live money: production refuses live payouts beside test payments (issue 30 item 5).
      ALLOW_TEST_PAYMENTS: 'false',
    },
    pay: (txRef, options = {}) => call('POST', '/control/pay', { txRef, ...options }),
    renew: (subscriptionId) => call('POST', '/control/renew', { subscriptionId }),
    dispute: (transactionId, status) => call('POST', '/control/dispute', { transactionId, status }),
    faults: (patch) => call('POST', '/control/faults', patch),
    completeTransfer: (reference, outcome) =>
      call('POST', '/control/transfers/complete', { reference, outcome }),
    async addOtherTransfers(count) {
      await call('POST', '/control/transfers/others', { count });
    },
    async addOtherRefunds(count) {
      await call('POST', '/control/refunds/others', { count });
    },
    refundNotice: (refundId) => call('POST', '/control/refunds/notify', { refundId }),
    state: () => call('GET', '/control/state'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

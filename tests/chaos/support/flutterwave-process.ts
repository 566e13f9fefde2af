// The Flutterwave fake in a process of its own (`node --import tsx …`), for the chaos suite:
// payments and the worker reach it as they reach Flutterwave (FLW_BASE_URL, one secret key),
// and the test drives and inspects it only over HTTP (`/control/*`, see flutterwave.ts), so the
// provider's records are its own and never a table of ours. Its parts are the fakes the
// services' tests use: payments' (payments, plans, subscriptions, refunds, chargebacks, banks)
// and the worker's transfers, behind one address as Flutterwave serves them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { startFakeFlutterwave } from '@lockdrop/payments/test/fake-flutterwave.js';
import { startFakeFlutterwaveTransfers } from '@lockdrop/worker/test/fakes/flutterwave-transfers.js';

const settings = z
  .object({ FLW_SECRET_KEY: z.string().min(8), FLW_WEBHOOK_HASH: z.string().min(8) })
  .parse(process.env);

const payments = await startFakeFlutterwave({
  secretKey: settings.FLW_SECRET_KEY,
  webhookHash: settings.FLW_WEBHOOK_HASH,
  resolveAnyAccount: true,
});
const transfers = await startFakeFlutterwaveTransfers({ secretKey: settings.FLW_SECRET_KEY });

const createFault = z.enum(['5xx', 'made_then_5xx', 'completes_at_once', '429', 'refused', 'none']);
/** The misbehaviour switches, each optional: a request changes what it names and nothing else. */
const faultsPatch = z.strictObject({
  payments: z
    .strictObject({
      verify: z.enum(['none', '5xx', 'timeout', 'amount', 'currency', 'tx_ref', 'pending']),
      payments: z.enum(['none', '5xx', 'timeout']),
      refund: z.enum([
        'none',
        '5xx',
        'reject',
        'refund_then_5xx',
        'pending',
        'late_503',
        'duplicate',
      ]),
      subscriptionFilters: z.enum(['honoured', 'ignored']),
    })
    .partial()
    .optional(),
  /** Subscriptions per page of `GET /v3/subscriptions` (page 1 unless the client asks for more). */
  subscriptionPageSize: z.number().int().min(1).optional(),
  refundList: z
    .strictObject({
      ignoreFilters: z.boolean(),
      pageSize: z.number().int().min(1),
      lookup: z.enum(['none', '5xx']),
      lags: z.boolean(),
    })
    .partial()
    .optional(),
  lateMs: z.number().int().min(0).optional(),
  transfers: z
    .strictObject({
      create: createFault,
      nextCreates: z.array(createFault),
      lookups: z.enum(['none', '5xx']),
      ignoreReferenceFilter: z.boolean(),
      pageSize: z.number().int().min(1),
      listsLag: z.boolean(),
      lateMs: z.number().int().min(0),
      completeAfterMs: z.number().int().min(0).nullable(),
    })
    .partial()
    .optional(),
});
const payBody = z.strictObject({
  txRef: z.string().min(1),
  amount: z.number().positive().optional(),
  currency: z.string().length(3).optional(),
  status: z.enum(['successful', 'failed', 'pending']).optional(),
});
const renewBody = z.strictObject({ subscriptionId: z.number().int() });
const disputeBody = z.strictObject({ transactionId: z.number().int(), status: z.string().min(1) });
const completeBody = z.strictObject({
  reference: z.string().min(1),
  outcome: z.enum(['SUCCESSFUL', 'FAILED']),
  message: z.string().optional(),
});
const othersBody = z.strictObject({ count: z.number().int().min(1).max(10_000) });
const refundNoticeBody = z.strictObject({ refundId: z.number().int() });

/** A notification as Flutterwave would post it: the exact bytes and their signature headers. */
function signed(body: unknown) {
  const raw = JSON.stringify(body);
  return { raw, headers: payments.signedHeaders(raw) };
}

function faultsNow() {
  const { hiddenFromLists, ...transferFaults } = transfers.faults;
  return {
    payments: payments.failures,
    subscriptionPageSize: payments.subscriptionPageSize,
    refundList: payments.refundList,
    lateMs: payments.lateMs,
    transfers: { ...transferFaults, hiddenFromLists: [...hiddenFromLists] },
  };
}

/** `/control/*`: what the test asks of the provider, and the provider's own records. */
async function control(method: string, pathname: string, body: unknown): Promise<unknown> {
  if (method === 'GET' && pathname === '/control/state')
    return {
      charges: payments.charges(),
      plans: [...payments.plans.values()],
      subscriptions: [...payments.subscriptions.values()],
      refunds: [...payments.refundRecords.values()],
      // Each refund request that moved money (after the refusal switches), as asked of it.
      refundRequests: payments.refunds,
      chargebacks: [...payments.chargebacks.values()],
      transfers: transfers.transfers,
      faults: faultsNow(),
    };
  if (method === 'POST' && pathname === '/control/faults') {
    const patch = faultsPatch.parse(body);
    Object.assign(payments.failures, patch.payments ?? {});
    Object.assign(payments.refundList, patch.refundList ?? {});
    if (patch.subscriptionPageSize) payments.subscriptionPageSize = patch.subscriptionPageSize;
    if (patch.lateMs !== undefined) payments.lateMs = patch.lateMs;
    Object.assign(transfers.faults, patch.transfers ?? {});
    return faultsNow();
  }
  if (method === 'POST' && pathname === '/control/pay') {
    const { txRef, ...options } = payBody.parse(body);
    const transaction = payments.pay(txRef, options);
    return { transaction, webhook: signed(payments.envelopeWebhook(transaction)) };
  }
  if (method === 'POST' && pathname === '/control/renew') {
    const transaction = payments.renew(renewBody.parse(body).subscriptionId);
    return { transaction, webhook: signed(payments.envelopeWebhook(transaction)) };
  }
  if (method === 'POST' && pathname === '/control/dispute') {
    const { transactionId, status } = disputeBody.parse(body);
    const id = payments.dispute(transactionId, status);
    return {
      id,
      webhook: signed({
        event: 'charge.dispute',
        data: { id, transaction_id: transactionId, status },
      }),
    };
  }
  if (method === 'POST' && pathname === '/control/transfers/complete') {
    const { reference, outcome, message } = completeBody.parse(body);
    transfers.complete(reference, outcome, message);
    const transfer = transfers.transfers.find((candidate) => candidate.reference === reference)!;
    // What Flutterwave posts once the bank has answered (payments-contract §5).
    return { transfer, webhook: signed({ event: 'transfer.completed', data: transfer }) };
  }
  if (method === 'POST' && pathname === '/control/refunds/others') {
    payments.addOtherRefunds(othersBody.parse(body).count);
    return { refunds: payments.refundRecords.size };
  }
  if (method === 'POST' && pathname === '/control/refunds/notify') {
    const record = payments.refundRecords.get(refundNoticeBody.parse(body).refundId);
    if (!record) throw new Error('no such refund');
    // [?] Not in the contract reference: the refund notification integrators report.
    return { webhook: signed({ event: `refund.${record.status}`, data: record }) };
  }
  if (method === 'POST' && pathname === '/control/transfers/others') {
    transfers.addOthers(othersBody.parse(body).count);
    return { transfers: transfers.transfers.length };
  }
  return undefined;
}

/** Passes a provider request on, as it came, to the part that serves it. */
function forward(request: http.IncomingMessage, response: http.ServerResponse, target: string) {
  const upstream = http.request(
    new URL(request.url ?? '/', target),
    { method: request.method, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', () => response.destroy());
  request.pipe(upstream);
}

const transfersOrigin = new URL(transfers.baseUrl).origin;
const paymentsOrigin = new URL(payments.baseUrl).origin;
const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://fake');
  if (url.pathname.startsWith('/v3/transfers')) return forward(request, response, transfersOrigin);
  if (!url.pathname.startsWith('/control/')) return forward(request, response, paymentsOrigin);
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    void (async () => {
      try {
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        const answer = await control(request.method ?? 'GET', url.pathname, body);
        if (answer === undefined)
          return reply(404, { error: { code: 'not_found', message: 'No such control.' } });
        reply(200, answer);
      } catch (error) {
        reply(400, { error: { code: 'bad_control', message: (error as Error).message } });
      }
    })();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
// The launcher reads this line for the address.
console.log(`flutterwave fake listening on ${(server.address() as AddressInfo).port}`);

const stop = () => {
  server.closeAllConnections();
  server.close();
  void Promise.all([payments.close(), transfers.close()]).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Flutterwave v3 transfers on real HTTP, as payments-contract §5 describes them: the envelope,
 * amounts in major units, NEW → SUCCESSFUL | FAILED with `complete_message`, a refused duplicate
 * reference, lookup by id and by reference, and switchable faults.
 */
export interface FakeTransfer {
  id: number;
  account_number: string;
  bank_code: string;
  full_name: string;
  currency: string;
  debit_currency: string;
  amount: number;
  fee: number;
  status: 'NEW' | 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reference: string;
  narration: string;
  complete_message: string;
  created_at: string;
}

export type CreateFault =
  /** 503 before anything happened. */
  | '5xx'
  /** The transfer is made, then the answer is a 503 after `lateMs` (Flutterwave: 28 s). */
  | 'made_then_5xx'
  /** The transfer is made, and completes before the create call answers (webhook first). */
  | 'completes_at_once'
  | '429'
  /** A 400 refusal that says nothing about references ("could not be processed"). */
  | 'refused'
  | 'none';

export interface FakeFlutterwaveTransfers {
  baseUrl: string;
  secretKey: string;
  /** Every transfer this provider executed: what tests count, never our own records. */
  transfers: FakeTransfer[];
  faults: {
    create: CreateFault;
    /** Faults for the next create calls, one each, before `create` applies again. */
    nextCreates: CreateFault[];
    lookups: 'none' | '5xx';
    slowMs: number;
    /**
     * `GET /transfers?reference=` is not in the contract: when true the filter is ignored and
     * the list holds every transfer (as Flutterwave's may).
     */
    ignoreReferenceFilter: boolean;
    /** Transfers per list page (`page=`, 1-based; only the first page unless asked). */
    pageSize: number;
    /** References the list never shows (a lookup that finds nothing though the transfer exists). */
    hiddenFromLists: Set<string>;
    /** The list shows no transfer at all (it lags behind the transfers made). */
    listsLag: boolean;
    /** How long `made_then_5xx` works on a transfer before its 503. */
    lateMs: number;
    /** The bank's word on each new transfer after this long (SUCCESSFUL); null: only `complete`. */
    completeAfterMs: number | null;
  };
  /** Transfers made by someone else (other payouts), to fill the list's pages. */
  addOthers(count: number): void;
  /** The bank's final word on a transfer. */
  complete(reference: string, outcome: 'SUCCESSFUL' | 'FAILED', message?: string): void;
  close(): Promise<void>;
}

export async function startFakeFlutterwaveTransfers(
  options: { secretKey?: string } = {},
): Promise<FakeFlutterwaveTransfers> {
  const secretKey = options.secretKey ?? 'FLWSECK_TEST-transfers-0123456789-X';
  const transfers: FakeTransfer[] = [];
  const faults: FakeFlutterwaveTransfers['faults'] = {
    create: 'none',
    nextCreates: [],
    lookups: 'none',
    slowMs: 0,
    ignoreReferenceFilter: false,
    pageSize: 10,
    hiddenFromLists: new Set(),
    listsLag: false,
    lateMs: 0,
    completeAfterMs: null,
  };
  let nextId = 33_286;

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const error = (response: http.ServerResponse, status: number, message: string) =>
    send(response, status, { status: 'error', message, data: null });

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (faults.slowMs) await new Promise((resolve) => setTimeout(resolve, faults.slowMs));
    if (request.headers.authorization !== `Bearer ${secretKey}`)
      return error(response, 401, 'Invalid authorization key');
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;

    if (request.method === 'POST' && url.pathname === '/v3/transfers') {
      const fault = faults.nextCreates.shift() ?? faults.create;
      if (fault === '5xx') return error(response, 503, 'Service unavailable');
      if (fault === '429') return error(response, 429, 'Too many requests');
      if (fault === 'refused') return error(response, 400, 'Transfer could not be processed');
      if (!/^\d{10}$/.test(String(body?.account_number ?? '')))
        return error(response, 400, 'Invalid account number');
      if (transfers.some((transfer) => transfer.reference === body.reference))
        return error(response, 400, 'Transfer with this reference already exists');
      const transfer: FakeTransfer = {
        id: nextId++,
        account_number: body.account_number,
        bank_code: body.account_bank,
        full_name: body.beneficiary_name ?? 'N/A',
        currency: body.currency,
        debit_currency: body.debit_currency ?? body.currency,
        amount: Number(body.amount),
        fee: 26.875,
        status: fault === 'completes_at_once' ? 'SUCCESSFUL' : 'NEW',
        reference: body.reference,
        narration: body.narration,
        complete_message: fault === 'completes_at_once' ? 'Successful' : '',
        created_at: new Date().toISOString(),
      };
      transfers.push(transfer);
      if (faults.completeAfterMs !== null && transfer.status === 'NEW')
        setTimeout(() => {
          if (transfer.status !== 'NEW') return;
          transfer.status = 'SUCCESSFUL';
          transfer.complete_message = 'Successful';
        }, faults.completeAfterMs).unref();
      if (fault === 'made_then_5xx') {
        if (faults.lateMs) await new Promise((resolve) => setTimeout(resolve, faults.lateMs));
        return error(response, 503, 'Gateway timeout');
      }
      return send(response, 200, {
        status: 'success',
        message: 'Transfer Queued Successfully',
        data: {
          ...transfer,
          requires_approval: 0,
          is_approved: 1,
          bank_name: 'ACCESS BANK NIGERIA',
        },
      });
    }
    if (faults.lookups === '5xx') return error(response, 502, 'Bad gateway');
    if (request.method === 'GET' && url.pathname === '/v3/transfers') {
      const reference = faults.ignoreReferenceFilter ? null : url.searchParams.get('reference');
      const all = transfers.filter(
        (transfer) =>
          !faults.listsLag &&
          !faults.hiddenFromLists.has(transfer.reference) &&
          (!reference || transfer.reference === reference),
      );
      const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
      const totalPages = Math.max(1, Math.ceil(all.length / faults.pageSize));
      return send(response, 200, {
        status: 'success',
        message: 'Transfers fetched',
        meta: { page_info: { total: all.length, current_page: page, total_pages: totalPages } },
        data: all.slice((page - 1) * faults.pageSize, page * faults.pageSize),
      });
    }
    const one = /^\/v3\/transfers\/(\d+)$/.exec(url.pathname);
    if (request.method === 'GET' && one) {
      const transfer = transfers.find((candidate) => candidate.id === Number(one[1]));
      return transfer
        ? send(response, 200, { status: 'success', message: 'Transfer fetched', data: transfer })
        : error(response, 404, 'Transfer not found');
    }
    return error(response, 404, 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v3`,
    secretKey,
    transfers,
    faults,
    addOthers(count) {
      for (let index = 0; index < count; index += 1)
        transfers.push({
          id: nextId++,
          account_number: '0690000031',
          bank_code: '044',
          full_name: 'SOMEONE ELSE',
          currency: 'NGN',
          debit_currency: 'NGN',
          amount: 100,
          fee: 10.75,
          status: 'SUCCESSFUL',
          reference: `other-${nextId}`,
          narration: 'another payout',
          complete_message: 'Successful',
          created_at: new Date().toISOString(),
        });
    },
    complete(reference, outcome, message) {
      const transfer = transfers.find((candidate) => candidate.reference === reference);
      if (!transfer) throw new Error(`no transfer ${reference}`);
      transfer.status = outcome;
      transfer.complete_message =
        message ?? (outcome === 'SUCCESSFUL' ? 'Successful' : 'DISBURSE FAILED');
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

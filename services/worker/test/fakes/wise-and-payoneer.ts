import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (
  request: http.IncomingMessage,
  url: URL,
  body: Record<string, unknown> | undefined,
) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

async function serve(handler: Handler) {
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | undefined;
    try {
      body = raw && raw.startsWith('{') ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const answer = await handler(request, new URL(request.url ?? '/', 'http://fake'), body);
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface WiseTransfer {
  id: number;
  customerTransactionId: string;
  targetAccount: number;
  quoteUuid: string;
  status: string;
  funded: number;
}

/** Wise's send-money endpoints: quote, e-mail recipient, idempotent transfer, fund, status. */
export async function startFakeWise() {
  const apiToken = 'wise-test-token';
  const profileId = '16433';
  const transfers: WiseTransfer[] = [];
  const faults = {
    /** `made_then_5xx`: the transfer is made, then the answer is a 503. */
    transfers: 'none' as 'none' | '5xx' | 'made_then_5xx',
    /** The list answers only the newest `limit` (at most 100), whatever `offset` asks. */
    ignoreOffset: false,
  };
  let nextId = 50_383_000;
  const wiseError = (status: number, message: string) => ({
    status,
    body: { errors: [{ code: 'error', message }] },
  });
  const server = await serve((request, url, body) => {
    if (request.headers.authorization !== `Bearer ${apiToken}`)
      return wiseError(401, 'Unauthorized');
    const path = url.pathname;
    if (request.method === 'POST' && path === `/v3/profiles/${profileId}/quotes`)
      return { status: 200, body: { id: randomUUID(), rate: 1, targetAmount: body?.targetAmount } };
    if (request.method === 'POST' && path === '/v1/accounts') {
      const email = (body?.details as { email?: string } | undefined)?.email ?? '';
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) return wiseError(422, 'Please provide a valid email');
      return { status: 200, body: { id: nextId++, type: 'email', details: { email } } };
    }
    if (request.method === 'POST' && path === '/v1/transfers') {
      if (faults.transfers === '5xx') return wiseError(503, 'Service unavailable');
      const existing = transfers.find(
        (t) => t.customerTransactionId === body?.customerTransactionId,
      );
      if (existing) return { status: 200, body: existing };
      const transfer: WiseTransfer = {
        id: nextId++,
        customerTransactionId: String(body?.customerTransactionId),
        targetAccount: Number(body?.targetAccount),
        quoteUuid: String(body?.quoteUuid),
        status: 'incoming_payment_waiting',
        funded: 0,
      };
      transfers.push(transfer);
      if (faults.transfers === 'made_then_5xx') return wiseError(503, 'Service unavailable');
      return { status: 200, body: transfer };
    }
    const pay = new RegExp(`^/v3/profiles/${profileId}/transfers/(\\d+)/payments$`).exec(path);
    if (request.method === 'POST' && pay) {
      const transfer = transfers.find((t) => t.id === Number(pay[1]));
      if (!transfer) return wiseError(404, 'Not found');
      if (transfer.funded > 0) return wiseError(409, 'Transfer is already funded');
      transfer.funded += 1;
      transfer.status = 'processing';
      return { status: 201, body: { type: 'BALANCE', status: 'COMPLETED', errorCode: null } };
    }
    if (request.method === 'GET' && path === '/v1/transfers') {
      // Newest first, at most 100 per call.
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? '100') || 100);
      const offset = faults.ignoreOffset ? 0 : Number(url.searchParams.get('offset') ?? '0') || 0;
      return { status: 200, body: [...transfers].reverse().slice(offset, offset + limit) };
    }
    const one = /^\/v1\/transfers\/(\d+)$/.exec(path);
    if (request.method === 'GET' && one) {
      const transfer = transfers.find((t) => t.id === Number(one[1]));
      return transfer ? { status: 200, body: transfer } : wiseError(404, 'Not found');
    }
    return wiseError(404, 'Not found');
  });
  return {
    baseUrl: server.url,
    apiToken,
    profileId,
    transfers,
    faults,
    /** Transfers made for other payouts, to push ours past the newest 100. */
    addOthers(count: number) {
      for (let index = 0; index < count; index += 1)
        transfers.push({
          id: nextId++,
          customerTransactionId: randomUUID(),
          targetAccount: 1,
          quoteUuid: randomUUID(),
          status: 'outgoing_payment_sent',
          funded: 1,
        });
    },
    setState(customerTransactionId: string, status: string) {
      const transfer = transfers.find((t) => t.customerTransactionId === customerTransactionId);
      if (!transfer) throw new Error(`no transfer ${customerTransactionId}`);
      transfer.status = status;
    },
    close: server.close,
  };
}

/** Payoneer v4 mass payouts with OAuth2 client credentials and status by client reference. */
export async function startFakePayoneer() {
  const clientId = 'lockdrop-client';
  const clientSecret = 'payoneer-secret';
  const programId = '100088';
  const payouts = new Map<
    string,
    { payee: string; amount: number; currency: string; status: string; reason?: string }
  >();
  const counters = { tokens: 0 };
  const faults = { masspayouts: 'none' as 'none' | '5xx' };
  const server = await serve((request, url, body) => {
    if (request.method === 'POST' && url.pathname === '/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected)
        return { status: 401, body: { error: 'invalid_client' } };
      counters.tokens += 1;
      return {
        status: 200,
        body: { access_token: `token-${counters.tokens}`, token_type: 'bearer', expires_in: 3600 },
      };
    }
    if (!/^Bearer token-\d+$/.test(request.headers.authorization ?? ''))
      return { status: 401, body: { error: 'invalid_token' } };
    if (request.method === 'POST' && url.pathname === `/v4/programs/${programId}/masspayouts`) {
      if (faults.masspayouts === '5xx')
        return { status: 502, body: { description: 'Bad gateway' } };
      const [payment] = (body?.Payments as Array<Record<string, unknown>> | undefined) ?? [];
      const reference = String(payment?.client_reference_id ?? '');
      if (payouts.has(reference))
        return { status: 400, body: { code: 10302, description: 'Duplicate client reference id' } };
      payouts.set(reference, {
        payee: String(payment?.payee_id),
        amount: Number(payment?.amount),
        currency: String(payment?.currency),
        status: 'Pending',
      });
      return { status: 200, body: { result: 'Payments Created', code: 0 } };
    }
    const status = new RegExp(`^/v4/programs/${programId}/payouts/([^/]+)/status$`).exec(
      url.pathname,
    );
    if (request.method === 'GET' && status) {
      const payout = payouts.get(decodeURIComponent(status[1]!));
      return payout
        ? {
            status: 200,
            body: { result: { status: payout.status, reason: payout.reason ?? null } },
          }
        : { status: 404, body: { description: 'Payout not found' } };
    }
    return { status: 404, body: { description: 'Not found' } };
  });
  return {
    baseUrl: server.url,
    tokenUrl: `${server.url}/oauth2/token`,
    clientId,
    clientSecret,
    programId,
    payouts,
    counters,
    faults,
    setStatus(reference: string, status: string, reason?: string) {
      const payout = payouts.get(reference);
      if (!payout) throw new Error(`no payout ${reference}`);
      Object.assign(payout, { status, reason });
    },
    close: server.close,
  };
}

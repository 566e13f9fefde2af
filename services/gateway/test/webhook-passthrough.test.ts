import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewaysForTests } from './support/gateways.js';

/**
 * Provider notifications pass the gateway before Fastify (issue 31). Over real HTTP: the early
 * path is the HTTP server's, which `inject` never reaches. Payments here is a recorder of what
 * reached it and answers as payments does; its own behaviour is tested in payments.
 */
interface Reached {
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
let reached: Reached[] = [];
let payments: Server;
let paymentsUrl: string;
let paymentsAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let gateways: Awaited<ReturnType<typeof gatewaysForTests>>;

beforeAll(async () => {
  payments = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      reached.push({
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(paymentsAnswer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(paymentsAnswer.body));
    });
  });
  await new Promise<void>((resolve) => payments.listen(0, '127.0.0.1', resolve));
  paymentsUrl = `http://127.0.0.1:${(payments.address() as { port: number }).port}`;
  gateways = await gatewaysForTests();
});
afterAll(async () => {
  await gateways?.close();
  payments?.closeAllConnections();
  await new Promise((resolve) => payments?.close(resolve));
});
beforeEach(() => {
  reached = [];
  paymentsAnswer = { status: 200, body: { received: true, outcome: 'accepted' } };
});

const gatewayTo = (upstream: string, env: Record<string, string> = {}) =>
  gateways.start({ PAYMENTS_URL: upstream, ...env });

const notification = JSON.stringify({
  event: 'charge.completed',
  data: { id: 42, tx_ref: 'ld_x' },
});
const post = (base: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${base}/api/webhooks/flutterwave`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'verif-hash': 'secret', ...init.headers },
    body: init.body ?? notification,
  });

describe('provider notifications through the gateway', () => {
  it('reach payments byte for byte with the real client, never the client’s own claims, and come back with the API’s headers', async () => {
    const gateway = await gatewayTo(paymentsUrl);
    const response = await post(gateway, {
      headers: {
        'x-forwarded-for': '198.51.100.7',
        'x-visitor-id': 'forged',
        'x-request-id': 'r-1',
      },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: 'accepted' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-served-by')).toBe('gateway');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(reached).toHaveLength(1);
    const [arrived] = reached;
    expect(arrived!.url).toBe('/api/webhooks/flutterwave');
    expect(arrived!.body.toString('utf8')).toBe(notification);
    expect(arrived!.headers['verif-hash']).toBe('secret');
    expect(arrived!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(arrived!.headers['x-visitor-id']).toBeUndefined();
    expect(arrived!.headers['x-request-id']).toBe(response.headers.get('x-request-id'));
    // Passed before Fastify (the cheap path a storm takes), and timed like every request.
    const metrics = await (await fetch(`${gateway}/metrics`)).text();
    expect(metrics).toMatch(/^gateway_webhooks_passed_total\{status="200"[^}]*\} 1$/m);
    expect(metrics).toMatch(
      /^http_request_duration_seconds_count\{[^}]*route="\/api\/webhooks\/:provider"[^}]*\} 1$/m,
    );
  });

  it('pass payments’ refusals on as they are', async () => {
    const gateway = await gatewayTo(paymentsUrl);
    paymentsAnswer = {
      status: 401,
      body: { error: { code: 'invalid_signature', message: 'Webhook signature is not valid' } },
    };
    const response = await post(gateway);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'invalid_signature',
    );
  });

  it('have their own per-address budget: a provider’s storm is not held to the site’s 600 a minute', async () => {
    const gateway = await gatewayTo(paymentsUrl, {
      RATE_LIMIT_PER_MINUTE: '3',
      WEBHOOK_RATE_LIMIT_PER_MINUTE: '8',
    });
    const statuses: number[] = [];
    for (let index = 0; index < 8; index++) statuses.push((await post(gateway)).status);
    expect(statuses).toEqual(Array(8).fill(200));
    const refused = await post(gateway);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(reached).toHaveLength(8);
  });

  it('a chunked notification, which the early path leaves to Fastify, still reaches payments', async () => {
    const gateway = await gatewayTo(paymentsUrl);
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(notification));
        controller.close();
      },
    });
    const response = await fetch(`${gateway}/api/webhooks/flutterwave`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'verif-hash': 'secret' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(200);
    expect(reached.map((r) => r.body.toString('utf8'))).toEqual([notification]);
  });

  it('answers 502 in the one error shape while payments cannot be reached, so the provider sends again', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const gateway = await gatewayTo(`http://127.0.0.1:${port}`);
    const response = await post(gateway);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: {
        code: 'service_unavailable',
        message: 'The payments service is not reachable right now',
      },
    });
  });
});

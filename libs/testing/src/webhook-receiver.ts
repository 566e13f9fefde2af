import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the seller's receiver saw it: the raw body, as signatures are checked over it. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed body (`{ type, timestamp, data }`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on fields
  payload: any;
}

/**
 * How the receiver answers: `ok` (200), `error` (500), `redirect` (302 to /elsewhere, which
 * records a hit if anyone follows it), `slow` (answers after `delayMs`, having processed
 * nothing), `late` (processes the event at once but answers 200 only after `delayMs`, so the
 * sender times out on a request that worked — the retry must carry the same webhook-id).
 */
export type ReceiverBehaviour =
  | { kind: 'ok' }
  | { kind: 'error' }
  | { kind: 'redirect' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'late'; delayMs: number };

export interface WebhookReceiver {
  url: string;
  /** Every request that reached the handler, whatever it answered. */
  requests: ReceivedWebhook[];
  /** What the seller's system processed: each webhook-id once, in the order first processed. */
  processed: ReceivedWebhook[];
  /** Requests to the redirect's target: a sender that follows redirects shows up here. */
  redirectsFollowed: number;
  behave(behaviour: ReceiverBehaviour): void;
  /** Stops listening: connections are refused until `up()`, on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

function headerMap(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(',') : (value ?? ''),
    ]),
  );
}

/** A seller's webhook receiver that misbehaves on demand (tests switch it with `behave`/`down`). */
export async function startWebhookReceiver(host = '127.0.0.1'): Promise<WebhookReceiver> {
  let behaviour: ReceiverBehaviour = { kind: 'ok' };
  const requests: ReceivedWebhook[] = [];
  const processed: ReceivedWebhook[] = [];
  const seen = new Set<string>();
  const pending = new Set<NodeJS.Timeout>();
  const receiver = {
    redirectsFollowed: 0,
  };

  const processOnce = (webhook: ReceivedWebhook) => {
    if (seen.has(webhook.id)) return;
    seen.add(webhook.id);
    processed.push(webhook);
  };
  const later = (delayMs: number, action: () => void) => {
    const timer = setTimeout(() => {
      pending.delete(timer);
      action();
    }, delayMs);
    pending.add(timer);
  };

  const handler = (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/elsewhere') {
      receiver.redirectsFollowed += 1;
      response.writeHead(200).end('followed');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = headerMap(request.headers);
      let payload: unknown = null;
      try {
        payload = JSON.parse(body);
      } catch {
        payload = null;
      }
      const webhook: ReceivedWebhook = {
        id: headers['webhook-id'] ?? '',
        timestamp: headers['webhook-timestamp'] ?? '',
        signature: headers['webhook-signature'] ?? '',
        headers,
        body,
        payload,
      };
      requests.push(webhook);
      const current = behaviour;
      switch (current.kind) {
        case 'ok':
          processOnce(webhook);
          response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          return;
        case 'error':
          response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver exploded');
          return;
        case 'redirect':
          response.writeHead(302, { location: '/elsewhere' }).end();
          return;
        case 'slow':
          later(current.delayMs, () => response.writeHead(200).end('too late'));
          return;
        case 'late':
          processOnce(webhook);
          later(current.delayMs, () => response.writeHead(200).end('processed, answered late'));
          return;
      }
    });
  };

  let server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };

  return Object.assign(receiver, {
    url: `http://${host}:${port}/hooks`,
    requests,
    processed,
    behave(next: ReceiverBehaviour) {
      behaviour = next;
    },
    down: stop,
    async up() {
      server = createServer(handler);
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
    },
    async close() {
      if (server.listening) await stop();
    },
  });
}

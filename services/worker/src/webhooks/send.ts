import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, resolvePublicAddress } from './address-guard.js';

/** What one attempt saw: the receiver's status (3xx included: redirects are not followed). */
export interface AttemptResult {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  /** The first RESPONSE_BODY_LIMIT characters of the answer, for the delivery log. */
  responseBody: string | null;
  /** Why it failed without an answer (refused address, timeout, connection refused). */
  error: string | null;
}

const RESPONSE_BODY_LIMIT = 1024;

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowLoopback: boolean;
}

/**
 * One POST to a seller's endpoint. The whole exchange (resolve, connect, answer) has
 * `timeoutMs`; only 2xx counts as received. Connects to the address the guard checked.
 */
export async function sendWebhook(options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(options.url);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const resolved = await withAbort(
      resolvePublicAddress(url.hostname, { allowLoopback: options.allowLoopback }),
      abort.signal,
    );
    const response = await post(url, options, resolved, abort.signal);
    const responseBody = await readLimited(response, abort.signal);
    const status = response.statusCode ?? 0;
    return {
      ok: status >= 200 && status < 300,
      responseStatus: status,
      durationMs: elapsed(),
      responseBody,
      error: status >= 300 && status < 400 ? 'redirects are not followed' : null,
    };
  } catch (error) {
    const message = abort.signal.aborted
      ? `no answer within ${options.timeoutMs} ms`
      : (error as Error).message;
    return {
      ok: false,
      responseStatus: null,
      durationMs: elapsed(),
      responseBody: null,
      error: message,
    };
  } finally {
    clearTimeout(timer);
  }
}

function post(
  url: URL,
  options: SendOptions,
  resolved: Awaited<ReturnType<typeof resolvePublicAddress>>,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: {
          ...options.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(options.body),
          'user-agent': 'Lockdrop-Webhooks/1',
        },
        lookup: pinnedLookup(resolved),
        // No shared keep-alive: every attempt resolves and checks the address anew.
        agent: false,
        signal,
      },
      resolve,
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

async function readLimited(response: IncomingMessage, signal: AbortSignal): Promise<string> {
  let text = '';
  const reading = (async () => {
    for await (const chunk of response) {
      if (text.length < RESPONSE_BODY_LIMIT) text += (chunk as Buffer).toString('utf8');
    }
  })();
  await withAbort(reading, signal);
  return text.slice(0, RESPONSE_BODY_LIMIT);
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

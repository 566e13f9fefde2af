import { PayoutProviderUnavailableError, PayoutRejectedError } from './types.js';

/**
 * One JSON call to a payout provider with the failure rules every adapter shares: no answer,
 * a timeout, 429 or 5xx → PayoutProviderUnavailableError (retry later, assume nothing);
 * 404 → null; 401/403 (our credentials) → unavailable, not the seller's fault; any other 4xx →
 * PayoutRejectedError with the provider's own message.
 */
export async function providerCall(
  provider: string,
  url: string,
  init: {
    method: 'GET' | 'POST';
    headers: Record<string, string>;
    body?: unknown;
    timeoutMs: number;
  },
  messageOf: (body: unknown) => string | undefined,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs),
    });
  } catch (error) {
    throw new PayoutProviderUnavailableError(
      `${provider} ${init.method} ${url}: ${(error as Error).message}`,
    );
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.status >= 500 || response.status === 429)
    throw new PayoutProviderUnavailableError(`${provider}: HTTP ${response.status}`);
  if (response.ok) return body;
  if (response.status === 404) return null;
  if (response.status === 401 || response.status === 403)
    throw new PayoutProviderUnavailableError(
      `${provider}: credentials refused (HTTP ${response.status})`,
    );
  throw new PayoutRejectedError(
    messageOf(body) ?? `${provider} refused the payout (HTTP ${response.status})`,
  );
}

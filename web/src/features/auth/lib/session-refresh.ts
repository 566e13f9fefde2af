// Relative import: the root vitest config (which runs this file's test) has no '@/' alias.
import { ApiError, NETWORK_ERROR } from '../../../lib/api';

/** Spec §9: look every 30 s; refresh once 90 s or less remain; retry from 200 ms, doubling, within 30 s. */
export const REFRESH_TICK_MS = 30_000;
export const REFRESH_MARGIN_MS = 90_000;
const FIRST_RETRY_MS = 200;
const RETRY_BUDGET_MS = 30_000;

export function needsRefresh(expiresAt: string, now: number): boolean {
  return Date.parse(expiresAt) - now <= REFRESH_MARGIN_MS;
}

/** The waits between attempts: 200, 400, 800 ... while their sum stays within the budget. */
export function retryDelays(first = FIRST_RETRY_MS, budget = RETRY_BUDGET_MS): number[] {
  const delays: number[] = [];
  let total = 0;
  for (let delay = first; total + delay <= budget; delay *= 2) {
    delays.push(delay);
    total += delay;
  }
  return delays;
}

/** Gateway hiccups and lost connections are worth another try; a refused token is not. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === NETWORK_ERROR || [502, 503, 504].includes(error.status))
  );
}

export async function withRetries<T>(
  attempt: () => Promise<T>,
  sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (const delay of retryDelays()) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      await sleep(delay);
    }
  }
  return attempt();
}

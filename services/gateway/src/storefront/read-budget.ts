import { normalizeIP } from '@fastify/rate-limit';
import { AppError } from '@lockdrop/http';

export interface BudgetCheck {
  allowed: boolean;
  /** `x-ratelimit-*` (and `retry-after` once refused), as @fastify/rate-limit sends them. */
  headers: Record<string, string>;
  /** Until the window ends. */
  retryAfterSeconds: number;
}

export interface ReadBudget {
  /** Counts one request from `ip` and says whether it is within the budget. */
  take(ip: string): BudgetCheck;
}

const MAX_CLIENTS = 50_000;

/** How long to wait, in the words of every 429 the gateway sends. */
export function rateLimitedError(retryAfterSeconds: number): AppError {
  const wait =
    retryAfterSeconds >= 60
      ? `${Math.round(retryAfterSeconds / 60)} minute${retryAfterSeconds >= 90 ? 's' : ''}`
      : `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  return new AppError('rate_limited', 429, `Too many requests, please try again in ${wait}`);
}

/**
 * The storefront reads' per-client budget, in this process's memory: a fixed window per
 * address (IPv6 by /64, like @fastify/rate-limit). It is its own object rather than the
 * plugin's store because the reads answered before Fastify (storefront/early-answers.ts) and
 * the route answering the rest must count into one budget.
 */
export function createReadBudget({
  max,
  windowMs = 60_000,
  now = Date.now,
}: {
  max: number;
  windowMs?: number;
  now?: () => number;
}): ReadBudget {
  const windows = new Map<string, { count: number; startedAt: number }>();
  const limit = String(max);
  return {
    take(ip) {
      const at = now();
      const key = normalizeIP(ip);
      let window = windows.get(key);
      if (!window || at - window.startedAt >= windowMs) {
        if (!window && windows.size >= MAX_CLIENTS) windows.delete(windows.keys().next().value!);
        window = { count: 0, startedAt: at };
        windows.set(key, window);
      }
      window.count += 1;
      const retryAfterSeconds = Math.ceil((window.startedAt + windowMs - at) / 1000);
      const allowed = window.count <= max;
      const headers: Record<string, string> = allowed
        ? {
            'x-ratelimit-limit': limit,
            'x-ratelimit-remaining': String(max - window.count),
            'x-ratelimit-reset': String(retryAfterSeconds),
          }
        : {
            'x-ratelimit-limit': limit,
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(retryAfterSeconds),
            'retry-after': String(retryAfterSeconds),
          };
      return { allowed, retryAfterSeconds, headers };
    },
  };
}

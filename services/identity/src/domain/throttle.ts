import type { Pool } from '@lockdrop/db';
import * as counters from '../db/throttle.repo.js';
import { authErrors } from './errors.js';

/**
 * Per-IP and per-account limits, counted in Postgres: identity already depends on it, the
 * counters are shared by every replica, and they survive restarts. (The gateway adds a coarse
 * per-IP limit in Redis in front of the sensitive routes.)
 */
const defaultLimits = {
  signInPerIp: { max: 20, windowSeconds: 15 * 60 },
  /** Failed attempts only: a successful sign-in clears the count. */
  signInFailuresPerAccount: { max: 5, windowSeconds: 15 * 60 },
  passwordResetPerIp: { max: 10, windowSeconds: 15 * 60 },
  passwordResetPerAccount: { max: 3, windowSeconds: 60 * 60 },
  verificationPerAccount: { max: 3, windowSeconds: 60 * 60 },
  contactPerIp: { max: 5, windowSeconds: 60 * 60 },
  mfaPerAccount: { max: 10, windowSeconds: 15 * 60 },
  /**
   * Wrong second-factor codes at sign-in, across every challenge: a stolen password would
   * otherwise get five fresh guesses per challenge, for ever. Reaching it tells the owner.
   */
  secondFactorFailuresPerAccount: { max: 10, windowSeconds: 60 * 60 },
};

export type ThrottleLimits = typeof defaultLimits;
type Limit = ThrottleLimits[keyof ThrottleLimits];

/** Per-IP budgets can be raised where many people share one address (an office NAT, the e2e run). */
export interface PerIpMaxima {
  signInPerIp: number;
  passwordResetPerIp: number;
}

export interface Throttle {
  readonly limits: ThrottleLimits;
  /** Counts an attempt; throws 429 once the window's budget is spent. */
  hit(key: string, limit: Limit): Promise<void>;
  /** Throws 429 if the budget is spent, without counting. */
  check(key: string, limit: Limit): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createThrottle(pool: Pool, perIp: PerIpMaxima): Throttle {
  return {
    limits: {
      ...defaultLimits,
      signInPerIp: { ...defaultLimits.signInPerIp, max: perIp.signInPerIp },
      passwordResetPerIp: { ...defaultLimits.passwordResetPerIp, max: perIp.passwordResetPerIp },
    },
    async hit(key, limit) {
      const counter = await counters.hit(pool, key, limit.windowSeconds);
      if (counter.hits > limit.max) throw authErrors.rateLimited(counter.retryAfterSeconds);
    },
    async check(key, limit) {
      const counter = await counters.peek(pool, key);
      if (counter.hits >= limit.max) throw authErrors.rateLimited(counter.retryAfterSeconds);
    },
    reset: (key) => counters.reset(pool, key),
  };
}

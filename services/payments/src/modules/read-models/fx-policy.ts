import type { Queryable } from '@lockdrop/db';
import type { ExchangeRate } from '@lockdrop/money';
import { listExchangeRates } from './read-models.repository.js';

/**
 * How payments converts money (issue 30, item 8). Rates older than `maxRateAgeHours` are not
 * used at all (0: no bound): checkout then takes only the product's own currency and a payout
 * conversion waits for fresh rates. `spreadBps` is Lockdrop's margin on a conversion: a buyer
 * paying in another currency pays that much more, a seller paid in another currency receives
 * that much less.
 */
export interface FxPolicy {
  maxRateAgeHours: number;
  spreadBps: number;
}

const BPS = 10_000n;
/** Production's rate-age bound when FX_MAX_RATE_AGE_HOURS is unset: two days of failed refreshes. */
export const PRODUCTION_MAX_RATE_AGE_HOURS = 48;

export function fxPolicy(env: {
  NODE_ENV: string;
  FX_MAX_RATE_AGE_HOURS?: number | undefined;
  FX_SPREAD_BPS: number;
}): FxPolicy {
  return {
    maxRateAgeHours:
      env.FX_MAX_RATE_AGE_HOURS ??
      (env.NODE_ENV === 'production' ? PRODUCTION_MAX_RATE_AGE_HOURS : 0),
    spreadBps: env.FX_SPREAD_BPS,
  };
}

/** The rates young enough to convert with at `now`. */
export function usableExchangeRates(
  db: Queryable,
  policy: FxPolicy,
  now: Date,
): Promise<ExchangeRate[]> {
  return listExchangeRates(
    db,
    policy.maxRateAgeHours > 0
      ? new Date(now.getTime() - policy.maxRateAgeHours * 3_600_000)
      : null,
  );
}

/** What the buyer pays for a converted amount: the spread on top, rounded up. */
export function withBuyerSpread(convertedMinor: number, policy: FxPolicy): number {
  const scaled = BigInt(convertedMinor) * (BPS + BigInt(policy.spreadBps));
  return Number((scaled + BPS - 1n) / BPS);
}

/** What the seller receives of a converted amount: the spread taken off, rounded down. */
export function withSellerSpread(convertedMinor: number, policy: FxPolicy): number {
  return Number((BigInt(convertedMinor) * (BPS - BigInt(policy.spreadBps))) / BPS);
}

/** The conversion ratio the seller actually gets, spread included (shown with the payout). */
export function sellerRatio(
  ratio: { numerator: bigint; denominator: bigint },
  policy: FxPolicy,
): { numerator: bigint; denominator: bigint } {
  return {
    numerator: ratio.numerator * (BPS - BigInt(policy.spreadBps)),
    denominator: ratio.denominator * BPS,
  };
}

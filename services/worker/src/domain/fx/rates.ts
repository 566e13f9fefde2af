import type { EventData } from '@lockdrop/contracts';
import { normalizeRate } from '@lockdrop/money';
import { z } from 'zod';

/** 1 `from` buys `rate` `to`, the rate a decimal string (the shape of `fx.rates.updated`). */
export type Rate = EventData<'fx.rates.updated'>['rates'][number];

/** One set of rates as a source gave them, all against USD. */
export interface RateSet {
  source: string;
  fetchedAt: Date;
  rates: Rate[];
}

/** Every rate is published as USD → currency: any pair converts directly, inversely or via USD. */
export const BASE_CURRENCY = 'USD';

/**
 * Why a refresh failed, as counted on /metrics: the source could not be reached or answered 5xx
 * (`unavailable`), refused the request with a 4xx (`refused`: key or URL), did not answer in
 * time (`timeout`), answered something that is not a full set of positive rates (`malformed`), or
 * moved a rate further in one refresh than FX_MAX_CHANGE_PERCENT allows (`implausible`).
 */
export type RateSourceFailure = 'unavailable' | 'refused' | 'timeout' | 'malformed' | 'implausible';

export class RateSourceError extends Error {
  override name = 'RateSourceError';
  constructor(
    readonly reason: RateSourceFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A rate as feeds write it: a JSON number or a decimal string. */
export const feedRateSchema = z.union([z.number(), z.string()]);

/**
 * USD → each of `currencies` (USD itself skipped) from a currency → rate map. The set is all or
 * nothing: a missing, zero, negative or unreadable rate fails the whole refresh, so consumers
 * never mix a partial set with the last good one.
 */
export function ratesAgainstUsd(
  quotes: Readonly<Record<string, z.infer<typeof feedRateSchema>>>,
  currencies: readonly string[],
): Rate[] {
  return currencies
    .filter((currency) => currency !== BASE_CURRENCY)
    .map((currency) => {
      const quoted = quotes[currency];
      if (quoted === undefined)
        throw new RateSourceError('malformed', `the feed has no rate for ${currency}`);
      try {
        return { from: BASE_CURRENCY, to: currency, rate: normalizeRate(quoted) };
      } catch (error) {
        throw new RateSourceError('malformed', `bad rate for ${currency}: ${String(quoted)}`, {
          cause: error,
        });
      }
    });
}

/** `{ "base": "USD", "rates": { "NGN": 1455.5, … } }`: the `url` feed and the shipped seed. */
export const rateFeedSchema = z.object({
  base: z.literal(BASE_CURRENCY),
  rates: z.record(z.string(), feedRateSchema),
});

/**
 * Refuses a set in which any rate moved more than `maxChangePercent` from the last published
 * one, either way (issue 30): a feed answering in the wrong unit or a ×1000 glitch must not
 * reprice every checkout and payout. Rates are not money, so a float comparison is fine here.
 * A genuine jump that large waits for an operator; meanwhile the last rates age out and
 * conversions stop (FX_MAX_RATE_AGE_HOURS), which is the safe side.
 */
export function assertPlausible(
  previous: readonly Rate[],
  next: readonly Rate[],
  maxChangePercent: number,
): void {
  if (maxChangePercent <= 0) return;
  const limit = 1 + maxChangePercent / 100;
  for (const rate of next) {
    const before = previous.find((old) => old.from === rate.from && old.to === rate.to);
    if (!before) continue;
    const factor = Number(rate.rate) / Number(before.rate);
    if (!(factor <= limit && factor >= 1 / limit))
      throw new RateSourceError(
        'implausible',
        `${rate.from}→${rate.to} moved from ${before.rate} to ${rate.rate} in one refresh (more than ${maxChangePercent} %)`,
      );
  }
}

import { z } from 'zod';
import type { WorkerConfig } from '../../config.js';
import {
  BASE_CURRENCY,
  feedRateSchema,
  rateFeedSchema,
  RateSourceError,
  ratesAgainstUsd,
  type Rate,
} from './rates.js';

/** Where the refresh job gets a full set of USD rates; it throws RateSourceError when it cannot. */
export interface RateSource {
  name: 'url' | 'flutterwave';
  fetchRates(): Promise<Rate[]>;
}

/** The configured source, or null for `FX_SOURCE=seed` (the shipped rates only, no refresh). */
export function createRateSource(config: WorkerConfig): RateSource | null {
  switch (config.FX_SOURCE) {
    case 'seed':
      return null;
    case 'url':
      return urlFeed(config);
    case 'flutterwave':
      return flutterwaveRates(config);
  }
}

function urlFeed(config: WorkerConfig): RateSource {
  const url = config.FX_URL;
  if (!url) throw new Error('FX_SOURCE=url needs FX_URL');
  return {
    name: 'url',
    async fetchRates() {
      const feed = parse(rateFeedSchema, await getJson(url, {}, config.FX_TIMEOUT_MS), 'the feed');
      return ratesAgainstUsd(feed.rates, config.FX_CURRENCIES);
    },
  };
}

/** Payments contract §5: `data.rate` is what 1 destination unit costs in the source currency. */
const flutterwaveRateSchema = z.object({
  status: z.literal('success'),
  data: z.object({
    rate: feedRateSchema,
    source: z.object({ currency: z.string(), amount: z.number() }),
    destination: z.object({ currency: z.string(), amount: z.number() }),
  }),
});

/** How far `source.amount` may stray from `rate × destination.amount` (amounts are rounded). */
const AMOUNT_TOLERANCE = 0.02;

function flutterwaveRates(config: WorkerConfig): RateSource {
  const secretKey = config.FLW_SECRET_KEY;
  if (!secretKey) throw new Error('FX_SOURCE=flutterwave needs FLW_SECRET_KEY');
  const base = config.FLW_BASE_URL.replace(/\/+$/, '');
  const rateFor = async (currency: string) => {
    // What 1 USD costs in `currency`: the provider prices a destination amount in the source.
    const query = new URLSearchParams({
      amount: '1',
      source_currency: currency,
      destination_currency: BASE_CURRENCY,
    });
    const answer = parse(
      flutterwaveRateSchema,
      await getJson(
        `${base}/transfers/rates?${query}`,
        { authorization: `Bearer ${secretKey}` },
        config.FX_TIMEOUT_MS,
      ),
      `the ${currency} rate`,
    );
    const { rate, source, destination } = answer.data;
    if (source.currency !== currency || destination.currency !== BASE_CURRENCY) {
      throw new RateSourceError(
        'malformed',
        `asked for ${currency} per USD, got ${source.currency} per ${destination.currency}`,
      );
    }
    // A rate read the wrong way round would be off by its square: refuse it rather than publish it.
    const expected = Number(rate) * destination.amount;
    if (!(Math.abs(source.amount - expected) <= Math.abs(expected) * AMOUNT_TOLERANCE)) {
      throw new RateSourceError(
        'malformed',
        `the ${currency} rate ${rate} does not match its amounts (${source.amount} for ${destination.amount} USD)`,
      );
    }
    return rate;
  };
  return {
    name: 'flutterwave',
    async fetchRates() {
      const quotes: Record<string, string | number> = {};
      // One at a time: ten quick calls, and the provider rate-limits bursts.
      for (const currency of config.FX_CURRENCIES) {
        if (currency !== BASE_CURRENCY) quotes[currency] = await rateFor(currency);
      }
      return ratesAgainstUsd(quotes, config.FX_CURRENCIES);
    },
  };
}

async function getJson(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<unknown> {
  const where = new URL(url).origin;
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    if (!response.ok) {
      throw new RateSourceError(
        response.status >= 500 ? 'unavailable' : 'refused',
        `${where} answered ${response.status}`,
      );
    }
    try {
      return JSON.parse(body);
    } catch (error) {
      throw new RateSourceError('malformed', `${where} answered something that is not JSON`, {
        cause: error,
      });
    }
  } catch (error) {
    if (error instanceof RateSourceError) throw error;
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new RateSourceError('timeout', `${where} did not answer within ${timeoutMs} ms`, {
        cause: error,
      });
    }
    throw new RateSourceError('unavailable', `${where} could not be reached`, { cause: error });
  }
}

function parse<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new RateSourceError('malformed', `${what} is not in the expected shape`, {
      cause: result.error,
    });
  }
  return result.data;
}

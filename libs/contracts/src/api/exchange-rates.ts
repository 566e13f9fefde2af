import { z } from 'zod';

/** Rates older than this are shown with their age ("Rates as of …"): the feed refreshes hourly. */
export const EXCHANGE_RATES_STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Catalog's `GET /api/exchange-rates`, read by the product page's "Show in" conversion. */
export const exchangeRatesResponseSchema = z.object({
  /** Every stored pair, newest first (spec §7 row 18): 1 `from` buys `rate` `to`. */
  rates: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      /** Decimal string, never a float. */
      rate: z.string(),
      source: z.string(),
      updatedAt: z.iso.datetime(),
    }),
  ),
  /** When the newest stored set was published (a fresh install: the seed's date); null: none. */
  asOf: z.iso.datetime().nullable(),
  /** true when `asOf` is more than 24 hours old by the server's clock. */
  stale: z.boolean(),
});
export type ExchangeRatesResponse = z.infer<typeof exchangeRatesResponseSchema>;

/** Catalog's `GET /api/currencies`: the currencies products may be priced and shown in. */
export const currencyListSchema = z.object({
  currencies: z.array(z.string()),
  /** `fallback` when the platform setting is missing or unreadable (spec §8's list). */
  source: z.enum(['settings', 'fallback']),
});
export type CurrencyList = z.infer<typeof currencyListSchema>;

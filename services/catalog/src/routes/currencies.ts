import { currencyListSchema, exchangeRatesResponseSchema } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { exchangeRatesWithAge, supportedCurrencies } from '../domain/currencies.js';

export function currencyRoutes(app: HttpServer, pool: Pool, now: () => Date): void {
  app.get(
    '/api/currencies',
    {
      schema: {
        summary: 'Currencies products may be priced and shown in',
        tags: ['currencies'],
        response: {
          200: currencyListSchema,
        },
      },
    },
    () => supportedCurrencies(pool),
  );

  app.get(
    '/api/exchange-rates',
    {
      schema: {
        summary:
          'Stored exchange rates, newest first (1 `from` buys `rate` `to`), with the time of the newest set and whether it is over a day old',
        tags: ['currencies'],
        response: { 200: exchangeRatesResponseSchema },
      },
    },
    async () => {
      const { rates, asOf, stale } = await exchangeRatesWithAge(pool, now());
      return {
        rates: rates.map((rate) => ({ ...rate, updatedAt: rate.updatedAt.toISOString() })),
        asOf: asOf?.toISOString() ?? null,
        stale,
      };
    },
  );
}

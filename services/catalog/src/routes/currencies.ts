import type { Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { exchangeRates, supportedCurrencies } from '../domain/currencies.js';

export function currencyRoutes(app: HttpServer, pool: Pool): void {
  app.get(
    '/api/currencies',
    {
      schema: {
        summary: 'Currencies products may be priced and shown in',
        tags: ['currencies'],
        response: {
          200: z.object({
            currencies: z.array(z.string()),
            /** `fallback` when the platform setting is missing or unreadable (spec §8's list). */
            source: z.enum(['settings', 'fallback']),
          }),
        },
      },
    },
    () => supportedCurrencies(pool),
  );

  app.get(
    '/api/exchange-rates',
    {
      schema: {
        summary: 'Stored exchange rates, newest first: 1 `from` buys `rate` `to`',
        tags: ['currencies'],
        response: {
          200: z.object({
            rates: z.array(
              z.object({
                from: z.string(),
                to: z.string(),
                rate: z.string(),
                source: z.string(),
                updatedAt: z.iso.datetime(),
              }),
            ),
          }),
        },
      },
    },
    async () => ({
      rates: (await exchangeRates(pool)).map((rate) => ({
        ...rate,
        updatedAt: rate.updatedAt.toISOString(),
      })),
    }),
  );
}

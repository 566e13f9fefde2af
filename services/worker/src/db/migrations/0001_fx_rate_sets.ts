import type { Migration } from '@lockdrop/db';

/**
 * Every set of exchange rates the worker published (fetched, or the shipped seed), newest last:
 * the history operators read when a rate looks wrong, and how a fresh install knows to seed.
 */
export const fxRateSets: Migration = {
  id: '0001_fx_rate_sets',
  sql: `
    CREATE TABLE fx_rate_sets (
      -- The id of the fx.rates.updated event that published this set, in the same transaction.
      id uuid PRIMARY KEY,
      source text NOT NULL,
      -- When the source gave these rates; the seed's as-of date for the shipped file.
      fetched_at timestamptz NOT NULL,
      -- [{ "from": "USD", "to": "NGN", "rate": "1455.5" }, …]: rates as decimal strings.
      rates jsonb NOT NULL CHECK (jsonb_typeof(rates) = 'array' AND jsonb_array_length(rates) > 0),
      stored_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX fx_rate_sets_fetched_at_idx ON fx_rate_sets (fetched_at DESC);
  `,
};

import { toMinor } from '@lockdrop/money';

/** Currencies offered until the catalog's /api/currencies answers (spec §8 fallback list). */
export const CALCULATOR_CURRENCIES = ['USD', 'EUR', 'GBP', 'NGN', 'CAD', 'AUD'] as const;

export const CALCULATOR_MIN_PRICE = 1;

/** The price field as minor units: anything that is not a non-negative number counts as 0. */
export function priceToMinor(text: string, currency: string): number {
  try {
    return Math.max(0, toMinor(text, currency));
  } catch {
    return 0;
  }
}

import { AppError } from '@lockdrop/http';
import { AmbiguousAmountError, minorToDecimalString, toMinor } from '@lockdrop/money';

/** Far above any real price and well inside the safe-integer range of minor units. */
const MAX_PRICE_MINOR = 1_000_000_000_000;

const invalidPrice = () =>
  new AppError('invalid_price', 400, 'Price must be a number of at least 0.01');

/**
 * The seller's decimal price → integer minor units of `currency`, rounded half away from zero
 * at the currency's exponent (19.999 USD → 2000; 1500.4 UGX → 1500). Must be at least one minor unit.
 */
export function priceToMinor(price: string | number, currency: string): number {
  let minor: number;
  try {
    minor = toMinor(price, currency);
  } catch (error) {
    if (error instanceof AmbiguousAmountError)
      throw new AppError('ambiguous_price', 400, error.message);
    throw invalidPrice();
  }
  if (minor < 1 || minor > MAX_PRICE_MINOR) throw invalidPrice();
  return minor;
}

/**
 * A pay-what-you-want minimum → minor units of `currency`: like a price, but zero is allowed
 * (the buyer may take the file for free) and it may not exceed the suggested price.
 */
export function minimumToMinor(
  minimum: string | number,
  currency: string,
  suggestedMinor: number,
): number {
  let minor: number;
  try {
    minor = toMinor(minimum, currency);
  } catch (error) {
    if (error instanceof AmbiguousAmountError)
      throw new AppError('ambiguous_price', 400, error.message);
    throw invalidMinimum();
  }
  if (minor < 0 || minor > MAX_PRICE_MINOR) throw invalidMinimum();
  if (minor > suggestedMinor)
    throw new AppError(
      'minimum_above_price',
      400,
      'The minimum price cannot be more than the suggested price',
    );
  return minor;
}

const invalidMinimum = () =>
  new AppError('invalid_minimum_price', 400, 'Minimum price must be a number of at least 0');

/** The same decimal amount in another currency's minor units: "19.99" stays 19.99 when USD becomes EUR. */
export function repriceInCurrency(priceMinor: number, from: string, to: string): number {
  return priceToMinor(minorToDecimalString(priceMinor, from), to);
}

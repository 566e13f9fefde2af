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

/** The same decimal amount in another currency's minor units: "19.99" stays 19.99 when USD becomes EUR. */
export function repriceInCurrency(priceMinor: number, from: string, to: string): number {
  return priceToMinor(minorToDecimalString(priceMinor, from), to);
}

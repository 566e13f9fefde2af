import { AmbiguousAmountError, minorToDecimalString, toMinor } from '@lockdrop/money';

/**
 * The typed amount in minor units and as the exact decimal checkout takes, or what is wrong with
 * it (with its minor units when it is an amount, only below the minimum).
 */
export type AmountReading =
  { minor: number; amount: string; problem: null } | { minor: number | null; problem: string };

const NOT_AN_AMOUNT = 'Enter an amount, e.g. 5.00';

/**
 * Pay what you want: reads the typed amount as payments will (libs/money, so "1,50" is 1.50)
 * and refuses one below the minimum before checkout, saying what the minimum is.
 */
export function readAmount(
  text: string,
  currency: string,
  minimum: { amountMinor: number; formatted: string },
): AmountReading {
  let minor: number;
  try {
    minor = toMinor(text, currency);
  } catch (error) {
    const problem = error instanceof AmbiguousAmountError ? error.message : NOT_AN_AMOUNT;
    return { minor: null, problem };
  }
  if (minor < 0) return { minor: null, problem: NOT_AN_AMOUNT };
  if (minor < minimum.amountMinor)
    return { minor, problem: `The minimum price is ${minimum.formatted}` };
  return { minor, amount: minorToDecimalString(minor, currency), problem: null };
}

/** The buy button: free, a subscription, or a one-off purchase of `price` (null: not known yet). */
export function buyLabel(
  price: { minor: number; label: string } | null,
  recurring: boolean,
): string {
  if (price === null) return 'Buy now';
  if (price.minor === 0) return 'Get it for free';
  return recurring ? `Subscribe for ${price.label}` : `Buy now for ${price.label}`;
}

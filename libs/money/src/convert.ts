import { assertMinor } from './amount.js';
import { currencyExponent, normalizeCurrency } from './currency.js';
import {
  divideAwayFromZero,
  divideRounded,
  numberToDecimalString,
  parseDecimal,
  pow10,
} from './decimal.js';

/** One row of exchange_rates: 1 unit of `from` buys `rate` units of `to`. */
export interface ExchangeRate {
  from: string;
  to: string;
  rate: string | number;
}

export interface Conversion {
  amountMinor: number;
  currency: string;
  /** false when no rate (direct, inverse or via USD) was found: the amount is returned unconverted. */
  converted: boolean;
}

interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

const PIVOT = 'USD';
const RATE_TEXT = /^(\d+)(?:\.(\d+))?$/;

/**
 * A positive exchange rate as the plain decimal string rates travel and are stored in
 * ("1550.5": no sign, exponent or separators, no padding zeros). A number from a JSON feed is
 * read from its shortest decimal form and never rounded further. Zero, negative, non-finite or
 * non-decimal input throws a RangeError.
 */
export function normalizeRate(rate: string | number): string {
  const text = typeof rate === 'number' ? numberToDecimalString(rate) : rate;
  const match = RATE_TEXT.exec(text);
  if (!match) throw new RangeError(`Not an exchange rate: ${rate}`);
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (/^0*$/.test(whole + fraction))
    throw new RangeError(`Exchange rate must be positive: ${rate}`);
  return fraction ? `${whole}.${fraction}` : whole;
}

function rateToRatio(rate: string | number): Ratio {
  const { negative, whole, fraction } = parseDecimal(
    typeof rate === 'number' ? numberToDecimalString(rate) : rate,
  );
  const numerator = BigInt(whole + fraction);
  if (negative || numerator === 0n) throw new RangeError(`Exchange rate must be positive: ${rate}`);
  return { numerator, denominator: pow10(fraction.length) };
}

function findRatio(from: string, to: string, rates: readonly ExchangeRate[]): Ratio | undefined {
  if (from === to) return { numerator: 1n, denominator: 1n };
  const direct = rates.find(
    (r) => normalizeCurrency(r.from) === from && normalizeCurrency(r.to) === to,
  );
  if (direct) return rateToRatio(direct.rate);
  const inverse = rates.find(
    (r) => normalizeCurrency(r.from) === to && normalizeCurrency(r.to) === from,
  );
  if (!inverse) return undefined;
  const ratio = rateToRatio(inverse.rate);
  return { numerator: ratio.denominator, denominator: ratio.numerator };
}

/** Direct rate, then the inverse of the opposite rate, then both legs through USD. */
export function exchangeRatio(
  from: string,
  to: string,
  rates: readonly ExchangeRate[],
): Ratio | undefined {
  const source = normalizeCurrency(from);
  const target = normalizeCurrency(to);
  const found = findRatio(source, target, rates);
  if (found || source === PIVOT || target === PIVOT) return found;
  const toPivot = findRatio(source, PIVOT, rates);
  const fromPivot = findRatio(PIVOT, target, rates);
  if (!toPivot || !fromPivot) return undefined;
  return {
    numerator: toPivot.numerator * fromPivot.numerator,
    denominator: toPivot.denominator * fromPivot.denominator,
  };
}

/**
 * Converts minor units between currencies, rounding once: half away from zero, or `up` (away from
 * zero) for a floor that must not shrink, such as a minimum price, which never rounds to nothing.
 */
export function convertMinor(
  amountMinor: number,
  from: string,
  to: string,
  rates: readonly ExchangeRate[],
  { rounding = 'nearest' }: { rounding?: 'nearest' | 'up' } = {},
): Conversion {
  assertMinor(amountMinor);
  const source = normalizeCurrency(from);
  const target = normalizeCurrency(to);
  const ratio = exchangeRatio(source, target, rates);
  if (!ratio) return { amountMinor, currency: source, converted: false };
  const numerator = BigInt(amountMinor) * ratio.numerator * pow10(currencyExponent(target));
  const denominator = ratio.denominator * pow10(currencyExponent(source));
  return {
    amountMinor: Number(
      rounding === 'up'
        ? divideAwayFromZero(numerator, denominator)
        : divideRounded(numerator, denominator),
    ),
    currency: target,
    converted: true,
  };
}

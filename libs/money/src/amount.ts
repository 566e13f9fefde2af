import { currencyExponent } from './currency.js';
import { divideRounded, numberToDecimalString, parseDecimal, pow10 } from './decimal.js';

/**
 * A decimal amount in major units ("19.99", 19.99) → integer minor units of the currency
 * (× 10^exponent), rounded half away from zero: toMinor('19.995', 'USD') === 2000.
 */
export function toMinor(amount: string | number, currency: string): number {
  const exponent = currencyExponent(currency);
  const text = typeof amount === 'number' ? numberToDecimalString(amount) : amount;
  const { negative, whole, fraction } = parseDecimal(text);
  const scaled = BigInt(whole + fraction);
  const minor = divideRounded(scaled * pow10(exponent), pow10(fraction.length));
  const result = Number(negative ? -minor : minor);
  if (!Number.isSafeInteger(result)) throw new RangeError(`Amount out of range: ${text}`);
  return result === 0 ? 0 : result;
}

/** Integer minor units → exact decimal string in major units: 1999 USD → "19.99", 500 JPY → "500". */
export function minorToDecimalString(minor: number, currency: string): string {
  assertMinor(minor);
  const exponent = currencyExponent(currency);
  const digits = Math.abs(minor)
    .toString()
    .padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const sign = minor < 0 ? '-' : '';
  return exponent === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

export function assertMinor(minor: number): void {
  if (!Number.isSafeInteger(minor))
    throw new RangeError(`Minor units must be a safe integer: ${minor}`);
}

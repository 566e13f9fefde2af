import { minorToDecimalString } from './amount.js';
import { currencyExponent, normalizeCurrency } from './currency.js';

/**
 * Formats minor units for display. The spec shows money with two decimals; currencies with a
 * larger exponent (KWD, BHD…) keep all their digits so no amount is ever shown rounded.
 */
export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  const code = normalizeCurrency(currency);
  const digits = Math.max(2, currencyExponent(code));
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  // Intl formats a decimal string exactly, so no float is involved.
  return format.format(minorToDecimalString(minor, code) as unknown as number);
}

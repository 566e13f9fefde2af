import { minorToDecimalString } from './amount.js';
import { currencyExponent, normalizeCurrency } from './currency.js';

// Building an Intl.NumberFormat costs ~75 µs (issue 11's profile: 13% of a product read); one
// per locale and currency is kept. The keys are few (supported currencies × locales in use).
const formats = new Map<string, Intl.NumberFormat>();

function moneyFormat(locale: string, code: string): Intl.NumberFormat {
  const key = `${locale}|${code}`;
  let format = formats.get(key);
  if (!format) {
    const digits = Math.max(2, currencyExponent(code));
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * Formats minor units for display. The spec shows money with two decimals; currencies with a
 * larger exponent (KWD, BHD…) keep all their digits so no amount is ever shown rounded.
 */
export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  const code = normalizeCurrency(currency);
  // Intl formats a decimal string exactly, so no float is involved.
  return moneyFormat(locale, code).format(minorToDecimalString(minor, code) as unknown as number);
}

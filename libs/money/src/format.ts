import { minorToDecimalString } from './amount.js';
import { currencyExponent, normalizeCurrency } from './currency.js';

// Building an Intl.NumberFormat costs ~75 µs (issue 11's profile: 13% of a product read); one
// per locale, currency and shape is kept. The keys are few (supported currencies × locales in use).
const formats = new Map<string, Intl.NumberFormat>();

/**
 * Currencies whose prices are written in whole units when the minor part is zero: kobo are not
 * used in everyday Nigerian prices, and sellers read "₦2,500", not "₦2,500.00" (issue 29). A
 * price with kobo keeps them. Every other currency keeps the spec's two decimals.
 */
const WHOLE_WHEN_EVEN = new Set(['NGN']);

const symbolOf = (locale: string, code: string, display: 'symbol' | 'narrowSymbol') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay: display })
    .formatToParts(1)
    .find((part) => part.type === 'currency')?.value ?? code;

/**
 * The locale's own sign for the currency (₦, GH₵, R) rather than its ISO code ("NGN 2,500"),
 * unless that sign is shared: where the narrow sign loses what the locale's symbol says
 * (CA$ and A$ both narrow to "$"), the symbol is kept, so no price reads as another currency.
 */
function currencyDisplay(locale: string, code: string): 'symbol' | 'narrowSymbol' {
  const symbol = symbolOf(locale, code, 'symbol');
  const narrow = symbolOf(locale, code, 'narrowSymbol');
  return narrow === symbol || symbol === code ? 'narrowSymbol' : 'symbol';
}

function moneyFormat(locale: string, code: string, whole: boolean): Intl.NumberFormat {
  const key = `${locale}|${code}|${whole ? 'whole' : 'minor'}`;
  let format = formats.get(key);
  if (!format) {
    const digits = whole ? 0 : Math.max(2, currencyExponent(code));
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      currencyDisplay: currencyDisplay(locale, code),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * Formats minor units for display, with the locale's sign for the currency (₦2,500, $19.99).
 * The spec shows money with two decimals; currencies with a larger exponent (KWD, BHD…) keep all
 * their digits so no amount is ever shown rounded; naira drop zero kobo (WHOLE_WHEN_EVEN).
 */
export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  const code = normalizeCurrency(currency);
  const whole = WHOLE_WHEN_EVEN.has(code) && minor % 10 ** currencyExponent(code) === 0;
  // Intl formats a decimal string exactly, so no float is involved.
  return moneyFormat(locale, code, whole).format(
    minorToDecimalString(minor, code) as unknown as number,
  );
}

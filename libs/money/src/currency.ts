/**
 * ISO 4217 minor-unit exponents. Currencies not listed use 2, the exponent of nearly every
 * currency a payment provider settles in.
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  BHD: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

const CURRENCY_CODE = /^[A-Z]{3}$/;

export function normalizeCurrency(currency: string): string {
  const code = currency.trim().toUpperCase();
  if (!CURRENCY_CODE.test(code)) throw new RangeError(`Not an ISO 4217 currency code: ${currency}`);
  return code;
}

export function currencyExponent(currency: string): number {
  return EXPONENTS[normalizeCurrency(currency)] ?? 2;
}

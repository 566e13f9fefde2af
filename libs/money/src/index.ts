export { currencyExponent, normalizeCurrency } from './currency.js';
export { toMinor, minorToDecimalString } from './amount.js';
export { formatMoney } from './format.js';
export {
  convertMinor,
  exchangeRatio,
  normalizeRate,
  type Conversion,
  type ExchangeRate,
} from './convert.js';
export { AmbiguousAmountError } from './decimal.js';

/** Exact decimal ↔ integer helpers on strings and BigInt, so money never passes through a float. */

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** A finite number as a plain decimal string (no exponent notation). */
export function numberToDecimalString(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`);
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

export interface ParsedDecimal {
  negative: boolean;
  whole: string;
  fraction: string;
}

/**
 * A number written with both kinds of separator, or with a comma alone, is read the way people
 * write it: the last separator is the decimal point when the other kind groups thousands
 * ("1,234.50", "1.234,50"), and a lone comma is a decimal comma unless exactly three digits
 * follow it. "1,500" is 1500 to a Lagos seller and 1.5 to a Berlin one: refused, never guessed.
 */
export class AmbiguousAmountError extends RangeError {
  override name = 'AmbiguousAmountError';
  constructor(text: string) {
    super(
      `"${text}" could mean two different amounts: write it without a thousands separator, with a dot for decimals (e.g. 1500 or 1.50)`,
    );
  }
}

const GROUPED = (separator: string) => new RegExp(`^\\d{1,3}(\\${separator}\\d{3})+$`);

/** Rewrites "1,234.50" / "1.234,50" / "1,5" to "1234.50" / "1234.50" / "1.5"; leaves plain forms alone. */
function normaliseSeparators(text: string): string {
  const compact = text.trim().replace(/[_\s]/g, '');
  const sign = /^[+-]/.test(compact) ? compact[0] : '';
  const body = sign ? compact.slice(1) : compact;
  const lastComma = body.lastIndexOf(',');
  const lastDot = body.lastIndexOf('.');
  if (lastComma === -1) {
    if (body.indexOf('.') !== lastDot && GROUPED('.').test(body))
      return sign + body.replace(/\./g, '');
    return compact;
  }
  if (lastDot === -1) {
    if (body.indexOf(',') !== lastComma) {
      if (GROUPED(',').test(body)) return sign + body.replace(/,/g, '');
      throw new RangeError(`Not a decimal amount: ${text}`);
    }
    if (body.length - lastComma - 1 === 3) throw new AmbiguousAmountError(text.trim());
    return sign + body.replace(',', '.');
  }
  const thousands = lastDot > lastComma ? ',' : '.';
  const point = Math.max(lastComma, lastDot);
  const whole = body.slice(0, point);
  if (!GROUPED(thousands).test(whole)) throw new RangeError(`Not a decimal amount: ${text}`);
  return `${sign}${whole.split(thousands).join('')}.${body.slice(point + 1)}`;
}

export function parseDecimal(text: string): ParsedDecimal {
  const match = DECIMAL.exec(normaliseSeparators(text));
  const whole = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  if (!match || (whole === '' && fraction === ''))
    throw new RangeError(`Not a decimal amount: ${text}`);
  return { negative: match[1] === '-', whole: whole || '0', fraction };
}

/** numerator / denominator rounded half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (d * 2n);
  return negative ? -quotient : quotient;
}

/** numerator / denominator rounded away from zero (a ceiling for positive amounts). */
export function divideAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n + d - 1n) / d;
  return negative ? -quotient : quotient;
}

export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

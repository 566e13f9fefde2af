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

export function parseDecimal(text: string): ParsedDecimal {
  const match = DECIMAL.exec(text.trim().replace(/[_,\s]/g, ''));
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

export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

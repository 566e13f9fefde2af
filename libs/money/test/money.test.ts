import { describe, expect, it } from 'vitest';
import {
  convertMinor,
  currencyExponent,
  formatMoney,
  minorToDecimalString,
  normalizeRate,
  toMinor,
  AmbiguousAmountError,
} from '../src/index.js';

describe('currencyExponent', () => {
  it('follows ISO 4217', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('NGN')).toBe(2);
    expect(currencyExponent('usd')).toBe(2);
    expect(currencyExponent('KWD')).toBe(3);
  });

  it('rejects something that is not a currency code', () => {
    expect(() => currencyExponent('DOLLARS')).toThrow(RangeError);
  });
});

describe('toMinor', () => {
  it('scales decimal strings exactly', () => {
    expect(toMinor('19.99', 'USD')).toBe(1999);
    expect(toMinor('0.01', 'USD')).toBe(1);
    expect(toMinor('1500', 'JPY')).toBe(1500);
    expect(toMinor('1.234', 'KWD')).toBe(1234);
    expect(toMinor('1,250.50', 'NGN')).toBe(125050);
  });

  it('reads a decimal comma instead of multiplying the price by 100', () => {
    expect(toMinor('1,50', 'USD')).toBe(150);
    expect(toMinor('1,5', 'EUR')).toBe(150);
    expect(toMinor('1.234,50', 'EUR')).toBe(123450);
    expect(toMinor('1.234.567,5', 'EUR')).toBe(123456750);
    expect(toMinor('1,234,567', 'NGN')).toBe(123456700);
    expect(toMinor('1.234.567', 'NGN')).toBe(123456700);
    expect(toMinor('-2,25', 'USD')).toBe(-225);
  });

  it('refuses a lone comma before three digits, which means 1500 to some and 1.5 to others', () => {
    expect(() => toMinor('1,500', 'NGN')).toThrow(AmbiguousAmountError);
    expect(() => toMinor('1,500', 'NGN')).toThrow(/with a dot for decimals/);
  });

  it('refuses separators in impossible places', () => {
    for (const text of ['12,34.5', '1.5,3,2', '1,2,3', '1.2.3', '1,,5', '1.234,5.6'])
      expect(() => toMinor(text, 'USD'), text).toThrow(RangeError);
  });

  it('rounds half away from zero', () => {
    expect(toMinor('19.995', 'USD')).toBe(2000);
    expect(toMinor('19.994', 'USD')).toBe(1999);
    expect(toMinor('-0.005', 'USD')).toBe(-1);
    expect(toMinor('2.5', 'JPY')).toBe(3);
  });

  it('accepts numbers without float drift', () => {
    expect(toMinor(0.1 + 0.2, 'USD')).toBe(30);
    expect(toMinor(19.99, 'USD')).toBe(1999);
    expect(toMinor(1.005, 'USD')).toBe(101);
    expect(toMinor(5e-7, 'USD')).toBe(0);
  });

  it('rejects text that is not an amount', () => {
    expect(() => toMinor('abc', 'USD')).toThrow(RangeError);
    expect(() => toMinor('', 'USD')).toThrow(RangeError);
    expect(() => toMinor(Number.NaN, 'USD')).toThrow(RangeError);
  });
});

describe('minorToDecimalString', () => {
  it('is the exact inverse of toMinor', () => {
    expect(minorToDecimalString(1999, 'USD')).toBe('19.99');
    expect(minorToDecimalString(5, 'USD')).toBe('0.05');
    expect(minorToDecimalString(-5, 'USD')).toBe('-0.05');
    expect(minorToDecimalString(1500, 'JPY')).toBe('1500');
    expect(minorToDecimalString(1234, 'KWD')).toBe('1.234');
  });
});

describe('formatMoney', () => {
  it('shows two decimals', () => {
    expect(formatMoney(1999, 'USD')).toBe('$19.99');
    expect(formatMoney(0, 'USD')).toBe('$0.00');
    expect(formatMoney(124000, 'USD')).toBe('$1,240.00');
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500.00');
  });

  it('keeps every digit of three-decimal currencies', () => {
    expect(formatMoney(1234, 'KWD', 'en-US')).toMatch(/1\.234$/);
  });

  it('follows the locale', () => {
    expect(formatMoney(123456, 'EUR', 'de-DE')).toBe('1.234,56\u00a0€');
    expect(formatMoney(250000, 'NGN', 'en-NG')).toBe('₦2,500');
  });

  it('writes the currency with its sign, never its ISO code, and never an ambiguous sign (issue 29)', () => {
    expect(formatMoney(250000, 'NGN')).toBe('₦2,500');
    expect(formatMoney(250000, 'GHS')).toBe('GH₵2,500.00');
    expect(formatMoney(1999, 'EUR')).toBe('€19.99');
    // "$" alone would read as US dollars.
    expect(formatMoney(1999, 'CAD')).toBe('CA$19.99');
    expect(formatMoney(1999, 'AUD')).toBe('A$19.99');
  });

  it('drops zero kobo from naira, and keeps kobo that are there', () => {
    expect(formatMoney(250000, 'NGN')).toBe('₦2,500');
    expect(formatMoney(250050, 'NGN')).toBe('₦2,500.50');
    expect(formatMoney(1, 'NGN')).toBe('₦0.01');
    expect(formatMoney(0, 'NGN')).toBe('₦0');
    expect(formatMoney(-250000, 'NGN')).toBe('-₦2,500');
    // Dollars keep the spec's two decimals.
    expect(formatMoney(250000, 'USD')).toBe('$2,500.00');
  });

  it('formats amounts beyond float precision exactly', () => {
    expect(formatMoney(9007199254740991, 'USD')).toBe('$90,071,992,547,409.91');
  });
});

describe('convertMinor', () => {
  const rates = [
    { from: 'USD', to: 'NGN', rate: '1500' },
    { from: 'EUR', to: 'USD', rate: '1.08' },
    { from: 'USD', to: 'JPY', rate: 150.5 },
  ];

  it('uses a direct rate and the currency exponents', () => {
    expect(convertMinor(1999, 'USD', 'NGN', rates)).toEqual({
      amountMinor: 2998500,
      currency: 'NGN',
      converted: true,
    });
    expect(convertMinor(1000, 'USD', 'JPY', rates)).toEqual({
      amountMinor: 1505,
      currency: 'JPY',
      converted: true,
    });
  });

  it('rounds up when asked, so a positive floor never converts to nothing', () => {
    expect(convertMinor(1, 'NGN', 'USD', rates).amountMinor).toBe(0);
    expect(convertMinor(1, 'NGN', 'USD', rates, { rounding: 'up' }).amountMinor).toBe(1);
    // Exact conversions are the same either way.
    expect(convertMinor(150000, 'NGN', 'USD', rates, { rounding: 'up' }).amountMinor).toBe(100);
    expect(convertMinor(150001, 'NGN', 'USD', rates, { rounding: 'up' }).amountMinor).toBe(101);
  });

  it('falls back to the inverse rate', () => {
    expect(convertMinor(150000, 'NGN', 'USD', rates)).toEqual({
      amountMinor: 100,
      currency: 'USD',
      converted: true,
    });
    expect(convertMinor(108, 'USD', 'EUR', rates)).toEqual({
      amountMinor: 100,
      currency: 'EUR',
      converted: true,
    });
  });

  it('goes through USD when no direct or inverse rate exists', () => {
    // 10.00 EUR → 10.80 USD → 16,200.00 NGN
    expect(convertMinor(1000, 'EUR', 'NGN', rates)).toEqual({
      amountMinor: 1620000,
      currency: 'NGN',
      converted: true,
    });
    // 16,200.00 NGN → 10.80 USD → 10.00 EUR
    expect(convertMinor(1620000, 'NGN', 'EUR', rates)).toEqual({
      amountMinor: 1000,
      currency: 'EUR',
      converted: true,
    });
  });

  it('returns the amount unconverted, flagged, when a rate is missing', () => {
    expect(convertMinor(1999, 'USD', 'GBP', rates)).toEqual({
      amountMinor: 1999,
      currency: 'USD',
      converted: false,
    });
    expect(convertMinor(1999, 'GBP', 'NGN', rates)).toEqual({
      amountMinor: 1999,
      currency: 'GBP',
      converted: false,
    });
  });

  it('leaves same-currency amounts alone', () => {
    expect(convertMinor(1999, 'usd', 'USD', [])).toEqual({
      amountMinor: 1999,
      currency: 'USD',
      converted: true,
    });
  });

  it('rounds once, half away from zero', () => {
    expect(
      convertMinor(1, 'USD', 'EUR', [{ from: 'USD', to: 'EUR', rate: '0.5' }]).amountMinor,
    ).toBe(1);
    expect(
      convertMinor(3, 'USD', 'EUR', [{ from: 'USD', to: 'EUR', rate: '0.5' }]).amountMinor,
    ).toBe(2);
  });

  it('rejects non-positive rates', () => {
    expect(() => convertMinor(100, 'USD', 'EUR', [{ from: 'USD', to: 'EUR', rate: 0 }])).toThrow(
      RangeError,
    );
  });
});

describe('normalizeRate', () => {
  it.each([
    ['1550.5', '1550.5'],
    [1550.5, '1550.5'],
    ['0.86500', '0.865'],
    ['007.10', '7.1'],
    [1e-7, '0.0000001'],
    ['3620', '3620'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeRate(input)).toBe(expected);
  });

  it.each([0, '0', '0.000', -1.5, '-1.5', '1,550.50', '1e3', '', 'abc', Number.NaN, Infinity])(
    'refuses %s',
    (input) => {
      expect(() => normalizeRate(input)).toThrow(RangeError);
    },
  );
});

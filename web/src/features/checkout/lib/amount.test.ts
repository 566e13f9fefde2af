import { describe, expect, it } from 'vitest';
import { buyLabel, readAmount } from './amount';

const minimum = { amountMinor: 200, formatted: '$2.00' };

describe('pay what you want amount', () => {
  it('reads an amount at or above the minimum as the exact decimal checkout takes', () => {
    expect(readAmount('7', 'USD', minimum)).toEqual({ minor: 700, amount: '7.00', problem: null });
    expect(readAmount('2', 'USD', minimum)).toEqual({ minor: 200, amount: '2.00', problem: null });
    expect(readAmount('1,50', 'EUR', { amountMinor: 0, formatted: '€0.00' })).toEqual({
      minor: 150,
      amount: '1.50',
      problem: null,
    });
  });

  it('refuses an amount below the minimum, naming the minimum', () => {
    expect(readAmount('1', 'USD', minimum)).toEqual({
      minor: 100,
      problem: 'The minimum price is $2.00',
    });
  });

  it('accepts zero when the minimum is zero', () => {
    expect(readAmount('0', 'USD', { amountMinor: 0, formatted: '$0.00' })).toEqual({
      minor: 0,
      amount: '0.00',
      problem: null,
    });
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'abc', '-3'])
      expect(readAmount(text, 'USD', minimum)).toEqual({
        minor: null,
        problem: 'Enter an amount, e.g. 5.00',
      });
    expect(readAmount('1,500', 'USD', minimum)).toMatchObject({
      problem: expect.stringMatching(/two different amounts/),
    });
  });
});

describe('buy button', () => {
  it('names the price, or says it is free', () => {
    expect(buyLabel({ minor: 800, label: '$8.00' }, false)).toBe('Buy now for $8.00');
    expect(buyLabel({ minor: 800, label: '$8.00 per month' }, true)).toBe(
      'Subscribe for $8.00 per month',
    );
    expect(buyLabel({ minor: 0, label: '$0.00' }, false)).toBe('Get it for free');
    expect(buyLabel(null, false)).toBe('Buy now');
  });
});

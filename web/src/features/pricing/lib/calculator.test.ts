import { describe, expect, it } from 'vitest';
import { priceToMinor } from './calculator';

describe('priceToMinor', () => {
  it('converts the price field to minor units of the currency', () => {
    expect(priceToMinor('19.99', 'USD')).toBe(1999);
    expect(priceToMinor('15000', 'NGN')).toBe(1500000);
  });

  it('treats anything that is not a non-negative number as 0', () => {
    expect(priceToMinor('', 'USD')).toBe(0);
    expect(priceToMinor('abc', 'USD')).toBe(0);
    expect(priceToMinor('-5', 'USD')).toBe(0);
  });
});

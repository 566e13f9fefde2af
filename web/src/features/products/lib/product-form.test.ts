import { describe, expect, it } from 'vitest';
import type { ProductInput } from '../types';
import { choiceOf, emptyInput, pricingOf, validationMessage } from './product-form';
import { priceLabel } from './pricing';

const filled: ProductInput = { ...emptyInput, title: 'Presets', price: '9.99', fileId: 'file-1' };

describe('create-product validation (spec §5)', () => {
  it('asks for the required fields first', () => {
    expect(validationMessage({ ...filled, title: '  ' }, true)).toBe(
      'Please fill in all required fields',
    );
    expect(validationMessage({ ...filled, price: '' }, true)).toBe(
      'Please fill in all required fields',
    );
  });

  it('refuses a price under 0.01', () => {
    expect(validationMessage({ ...filled, price: '0' }, true)).toBe(
      'Price must be a number of at least 0.01',
    );
    expect(validationMessage({ ...filled, price: 'abc' }, true)).toBe(
      'Price must be a number of at least 0.01',
    );
    expect(validationMessage({ ...filled, price: '0.01' }, true)).toBeNull();
  });

  it('reads a decimal comma the way the catalog does, and refuses an ambiguous one', () => {
    expect(validationMessage({ ...filled, price: '1,50' }, true)).toBeNull();
    expect(validationMessage({ ...filled, price: '1,500' }, true)).toMatch(
      /could mean two different amounts/,
    );
  });

  it('requires an upload on create but not on edit', () => {
    expect(validationMessage({ ...filled, fileId: null }, true)).toBe(
      'Please upload a file for your product',
    );
    expect(validationMessage({ ...filled, fileId: null }, false)).toBeNull();
  });
});

describe('pricing', () => {
  it('round-trips the one-time / monthly / yearly choice', () => {
    for (const choice of ['one_time', 'monthly', 'yearly'] as const)
      expect(choiceOf(pricingOf(choice))).toBe(choice);
  });

  it('labels recurring prices per interval', () => {
    expect(priceLabel('$5.00', { type: 'one_time' })).toBe('$5.00');
    expect(priceLabel('$5.00', { type: 'recurring', interval: 'monthly' })).toBe('$5.00 per month');
    expect(priceLabel('$50.00', { type: 'recurring', interval: 'yearly' })).toBe('$50.00 per year');
  });
});

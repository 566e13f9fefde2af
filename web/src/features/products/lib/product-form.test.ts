import { describe, expect, it } from 'vitest';
import type { ProductInput } from '../types';
import { choiceOf, emptyInput, pricingOf, validationMessage } from './product-form';
import { payWhatYouWantLabel, priceLabel } from './pricing';

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

describe('pay what you want (minimum price)', () => {
  const pwyw: ProductInput = { ...filled, price: '5', minimumPrice: '2' };

  it('accepts a minimum from 0 up to the suggested price', () => {
    expect(validationMessage(pwyw, true)).toBeNull();
    expect(validationMessage({ ...pwyw, minimumPrice: '0' }, true)).toBeNull();
    expect(validationMessage({ ...pwyw, minimumPrice: '5.00' }, true)).toBeNull();
  });

  it('refuses a minimum under 0, empty or not a number', () => {
    for (const minimumPrice of ['-1', '', 'abc'])
      expect(validationMessage({ ...pwyw, minimumPrice }, true)).toBe(
        'Minimum price must be a number of at least 0',
      );
  });

  it('refuses a minimum above the suggested price', () => {
    expect(validationMessage({ ...pwyw, minimumPrice: '5.01' }, true)).toBe(
      'The minimum price cannot be more than the suggested price',
    );
  });

  it('reads the minimum as the catalog does', () => {
    expect(validationMessage({ ...pwyw, minimumPrice: '1,50' }, true)).toBeNull();
    expect(validationMessage({ ...pwyw, price: '5000', minimumPrice: '1,500' }, true)).toMatch(
      /could mean two different amounts/,
    );
  });

  it('is for one-time pricing only', () => {
    expect(
      validationMessage({ ...pwyw, pricing: { type: 'recurring', interval: 'monthly' } }, true),
    ).toBe('Pay what you want is for one-time pricing only');
  });

  it('leaves a fixed price alone', () => {
    expect(validationMessage({ ...filled, minimumPrice: null }, true)).toBeNull();
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

  it('labels pay what you want by its minimum', () => {
    expect(payWhatYouWantLabel(200, '$2.00')).toBe('$2.00+ (pay what you want)');
    expect(payWhatYouWantLabel(0, '$0.00')).toBe('Pay what you want');
  });
});

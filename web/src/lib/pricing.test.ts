import { describe, expect, it } from 'vitest';
import { payWhatYouWantLabel, priceLabel, productPriceLabel } from './pricing';

describe('price labels', () => {
  it('labels recurring prices per interval', () => {
    expect(priceLabel('$5.00', { type: 'one_time' })).toBe('$5.00');
    expect(priceLabel('$5.00', { type: 'recurring', interval: 'monthly' })).toBe('$5.00 per month');
    expect(priceLabel('$50.00', { type: 'recurring', interval: 'yearly' })).toBe('$50.00 per year');
  });

  it('labels pay what you want by its minimum', () => {
    expect(payWhatYouWantLabel(200, '$2.00')).toBe('$2.00+ (pay what you want)');
    expect(payWhatYouWantLabel(0, '$0.00')).toBe('Pay what you want');
  });

  it("puts a product's price in one line, pay what you want first", () => {
    const fixed = {
      priceFormatted: '$5.00',
      pricing: { type: 'one_time' },
      payWhatYouWant: null,
    } as const;
    expect(productPriceLabel(fixed)).toBe('$5.00');
    expect(
      productPriceLabel({ ...fixed, pricing: { type: 'recurring', interval: 'monthly' } }),
    ).toBe('$5.00 per month');
    expect(
      productPriceLabel({
        ...fixed,
        payWhatYouWant: { minimumMinor: 200, minimum: '2.00', minimumFormatted: '$2.00' },
      }),
    ).toBe('$2.00+ (pay what you want)');
  });
});

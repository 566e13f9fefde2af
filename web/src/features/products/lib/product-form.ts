import { AmbiguousAmountError, toMinor } from '@lockdrop/money';
import type { Pricing, Product, ProductInput } from '../types';

export type PricingChoice = 'one_time' | 'monthly' | 'yearly';

export const pricingOf = (choice: PricingChoice): Pricing =>
  choice === 'one_time' ? { type: 'one_time' } : { type: 'recurring', interval: choice };

export const choiceOf = (pricing: Pricing): PricingChoice =>
  pricing.type === 'one_time' ? 'one_time' : pricing.interval;

export const emptyInput: ProductInput = {
  title: '',
  description: null,
  price: '',
  currency: 'USD',
  fileId: null,
  previewEnabled: true,
  previewBlurPercentage: 50,
  pricing: { type: 'one_time' },
};

export const inputOf = (product: Product): ProductInput => ({
  title: product.title,
  description: product.description,
  price: product.price,
  currency: product.currency,
  fileId: null,
  previewEnabled: product.previewEnabled,
  previewBlurPercentage: product.previewBlurPercentage,
  pricing: product.pricing,
});

/** Spec §5: the message to show, or null when the form may be sent. */
export function validationMessage(input: ProductInput, requireFile: boolean): string | null {
  if (!input.title.trim() || !input.price.trim()) return 'Please fill in all required fields';
  const priceProblem = priceMessage(input.price, input.currency);
  if (priceProblem) return priceProblem;
  if (requireFile && !input.fileId) return 'Please upload a file for your product';
  return null;
}

/** The same reading of the typed price as the catalog's (libs/money), so "1,50" is 1.50 here too. */
function priceMessage(price: string, currency: string): string | null {
  try {
    if (toMinor(price, currency) >= 1) return null;
  } catch (error) {
    if (error instanceof AmbiguousAmountError) return error.message;
  }
  return 'Price must be a number of at least 0.01';
}

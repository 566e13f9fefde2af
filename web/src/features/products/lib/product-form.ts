import { AmbiguousAmountError, toMinor } from '@lockdrop/money';
import type { UploadedFile } from '@lockdrop/contracts';
import type { Pricing, Product, ProductInput } from '../types';
import type { BillingInterval } from '@lockdrop/contracts';

export type PricingChoice = 'one_time' | BillingInterval;

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
  minimumPrice: null,
  stampPdfs: false,
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
  minimumPrice: product.payWhatYouWant?.minimum ?? null,
  stampPdfs: product.stampPdfs,
});

/** The file the product will have once the form is sent: a new upload, else its current file. */
export type ChosenFile = Pick<UploadedFile, 'id' | 'kind'>;

/** Stamping buyers' copies works on PDFs only, so the option exists only for one. */
export const offersStamping = (file: ChosenFile | null): file is ChosenFile => file?.kind === 'pdf';

/** What the form sends: the typed text trimmed, and stamping on only when the file is a PDF. */
export const submissionOf = (input: ProductInput, file: ChosenFile | null): ProductInput => ({
  ...input,
  title: input.title.trim(),
  description: input.description?.trim() || null,
  minimumPrice: input.minimumPrice?.trim() ?? null,
  stampPdfs: input.stampPdfs && offersStamping(file),
});

/** What is wrong, and the field to mark and focus. */
export interface FormProblem {
  field: 'title' | 'price' | 'minimumPrice' | 'file';
  message: string;
}

/** Spec §5: the first problem, or null when the form may be sent. */
export function validationProblem(input: ProductInput, requireFile: boolean): FormProblem | null {
  const required = 'Please fill in all required fields';
  if (!input.title.trim()) return { field: 'title', message: required };
  if (!input.price.trim()) return { field: 'price', message: required };
  const priceProblem = priceMessage(input.price, input.currency);
  if (priceProblem) return { field: 'price', message: priceProblem };
  if (input.minimumPrice !== null) {
    const minimumProblem = minimumMessage(input);
    if (minimumProblem) return { field: 'minimumPrice', message: minimumProblem };
  }
  if (requireFile && !input.fileId)
    return { field: 'file', message: 'Please upload a file for your product' };
  return null;
}

export const validationMessage = (input: ProductInput, requireFile: boolean): string | null =>
  validationProblem(input, requireFile)?.message ?? null;

/** Pay what you want: a minimum from 0 up to the suggested price, one-time pricing only. */
function minimumMessage({ minimumPrice, price, currency, pricing }: ProductInput): string | null {
  if (pricing.type !== 'one_time') return 'Pay what you want is for one-time pricing only';
  let minimum: number;
  try {
    minimum = toMinor(minimumPrice ?? '', currency);
  } catch (error) {
    if (error instanceof AmbiguousAmountError) return error.message;
    return 'Minimum price must be a number of at least 0';
  }
  if (minimum < 0) return 'Minimum price must be a number of at least 0';
  if (minimum > toMinor(price, currency))
    return 'The minimum price cannot be more than the suggested price';
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

import { describe, expect, it } from 'vitest';
import type { Product, ProductInput } from '../types';
import {
  choiceOf,
  emptyInput,
  inputOf,
  offersStamping,
  pricingOf,
  submissionOf,
  validationMessage,
} from './product-form';

const filled: ProductInput = { ...emptyInput, title: 'Presets', price: '9.99', fileId: 'file-1' };

const makeProduct = (overrides: Partial<Product> = {}): Product => ({
  id: '00000000-0000-4000-8000-000000000001',
  ownerId: '00000000-0000-4000-8000-000000000002',
  title: 'Field guide',
  description: null,
  priceMinor: 999,
  currency: 'USD',
  price: '9.99',
  priceFormatted: '$9.99',
  pricing: { type: 'one_time' },
  payWhatYouWant: null,
  status: 'draft',
  fileId: '00000000-0000-4000-8000-000000000003',
  fileName: 'guide.pdf',
  fileSizeBytes: 1024,
  fileKind: 'pdf',
  files: [
    {
      fileId: '00000000-0000-4000-8000-000000000003',
      fileName: 'guide.pdf',
      sizeBytes: 1024,
      kind: 'pdf',
    },
  ],
  buyersToldAt: null,
  previewEnabled: true,
  previewBlurPercentage: 50,
  stampPdfs: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  publishedAt: null,
  ...overrides,
});

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
});

describe('stamped PDFs', () => {
  const pdf = { id: 'file-1', kind: 'pdf' } as const;
  const zip = { id: 'file-2', kind: 'document' } as const;

  it('is offered for a PDF only', () => {
    expect(offersStamping(pdf)).toBe(true);
    expect(offersStamping(zip)).toBe(false);
    expect(offersStamping(null)).toBe(false);
  });

  it('is off for a new product and kept from the product on edit', () => {
    expect(emptyInput.stampPdfs).toBe(false);
    expect(inputOf(makeProduct({ stampPdfs: true })).stampPdfs).toBe(true);
    expect(inputOf(makeProduct({ stampPdfs: false })).stampPdfs).toBe(false);
  });

  it('is sent as ticked for a PDF, and off once the file is no PDF', () => {
    expect(submissionOf({ ...filled, stampPdfs: true }, pdf).stampPdfs).toBe(true);
    expect(submissionOf({ ...filled, stampPdfs: false }, pdf).stampPdfs).toBe(false);
    expect(submissionOf({ ...filled, stampPdfs: true }, zip).stampPdfs).toBe(false);
  });

  it('sends the typed text trimmed', () => {
    const sent = submissionOf(
      { ...filled, title: ' Presets ', description: '  ', minimumPrice: ' 2 ' },
      pdf,
    );
    expect(sent).toMatchObject({ title: 'Presets', description: null, minimumPrice: '2' });
  });
});

import type { DiscountCode } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';
import {
  emptyValues,
  requestOf,
  toRequest,
  valuesOf,
  type DiscountFormValues,
} from './discount-form';
import { fromLocalInput, toLocalInput } from './local-time';
import { validationMessage } from './validation';

const percent: DiscountFormValues = { ...emptyValues(), code: 'LAUNCH20', percentOff: '20' };

const saved: DiscountCode = {
  id: '00000000-0000-4000-8000-000000000001',
  code: 'NAIRA500',
  kind: 'fixed',
  percentOff: null,
  amountOffMinor: 50000,
  amountOff: '500.00',
  currency: 'NGN',
  label: '₦500.00 off',
  productIds: ['00000000-0000-4000-8000-000000000002'],
  startsAt: '2026-01-01T09:30:00.000Z',
  endsAt: null,
  maxUses: 100,
  maxUsesPerBuyer: 1,
  active: false,
  state: 'inactive',
  uses: 3,
  reserved: 0,
  revenue: [],
  createdAt: '2025-12-01T00:00:00.000Z',
};

describe('discount code form', () => {
  it('sends a percentage code for every product with no dates or limits', () => {
    expect(toRequest(percent)).toEqual({
      code: 'LAUNCH20',
      kind: 'percent',
      percentOff: 20,
      amountOff: null,
      currency: null,
      productIds: null,
      startsAt: null,
      endsAt: null,
      maxUses: null,
      maxUsesPerBuyer: null,
      active: true,
    });
  });

  it('round-trips a saved fixed-amount code through the form unchanged', () => {
    expect(toRequest(valuesOf(saved))).toEqual(requestOf(saved));
  });

  it('reads datetime-local values in the browser time zone and back', () => {
    const local = toLocalInput('2026-03-04T05:06:00.000Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe('2026-03-04T05:06:00.000Z');
    expect(fromLocalInput('')).toBeNull();
  });
});

describe('discount code validation', () => {
  it('accepts a complete code', () => {
    expect(validationMessage(percent)).toBeNull();
    expect(
      validationMessage({ ...percent, kind: 'fixed', amountOff: '2.50', percentOff: '' }),
    ).toBeNull();
  });

  it('refuses a malformed code', () => {
    for (const code of ['', 'AB', 'has space', 'x'.repeat(33)])
      expect(validationMessage({ ...percent, code })).toBe(
        'A code is 3 to 32 letters, digits, - or _',
      );
  });

  it('wants a whole percentage from 1 to 100', () => {
    for (const percentOff of ['', '0', '101', '12.5'])
      expect(validationMessage({ ...percent, percentOff })).toMatch(/whole number from 1 to 100/);
    expect(validationMessage({ ...percent, percentOff: '100' })).toBeNull();
  });

  it('wants a positive amount for a fixed code, read as the catalog reads prices', () => {
    const fixed = { ...percent, kind: 'fixed' as const };
    expect(validationMessage({ ...fixed, amountOff: '0' })).toMatch(/amount off/);
    expect(validationMessage({ ...fixed, amountOff: 'abc' })).toMatch(/amount off/);
    expect(validationMessage({ ...fixed, amountOff: '1,500' })).toMatch(/two different amounts/);
    expect(validationMessage({ ...fixed, amountOff: '1,50' })).toBeNull();
  });

  it('wants chosen products when not for all products', () => {
    expect(validationMessage({ ...percent, allProducts: false })).toMatch(/at least one product/);
    expect(validationMessage({ ...percent, allProducts: false, productIds: ['p'] })).toBeNull();
  });

  it('wants the end after the start', () => {
    const dates = { startsAt: '2026-05-02T10:00', endsAt: '2026-05-02T10:00' };
    expect(validationMessage({ ...percent, ...dates })).toBe('The end must be after the start');
    expect(validationMessage({ ...percent, ...dates, endsAt: '2026-05-02T10:01' })).toBeNull();
  });

  it('wants limits of at least 1', () => {
    expect(validationMessage({ ...percent, maxUses: '0' })).toMatch(/at least 1/);
    expect(validationMessage({ ...percent, maxUsesPerBuyer: '1.5' })).toMatch(/at least 1/);
    expect(validationMessage({ ...percent, maxUses: '10', maxUsesPerBuyer: '1' })).toBeNull();
  });
});

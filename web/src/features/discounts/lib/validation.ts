import { DISCOUNT_CODE_PATTERN } from '@lockdrop/contracts';
import { AmbiguousAmountError, toMinor } from '@lockdrop/money';
import type { DiscountFormValues } from './discount-form';

const isWholeNumber = (text: string, min: number, max: number) =>
  /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

function amountMessage(amount: string, currency: string): string | null {
  try {
    if (toMinor(amount, currency) >= 1) return null;
  } catch (error) {
    if (error instanceof AmbiguousAmountError) return error.message;
  }
  return 'Enter the amount off, e.g. 5 or 2.50';
}

export type DiscountField =
  'code' | 'percentOff' | 'amountOff' | 'products' | 'endsAt' | 'maxUses' | 'maxUsesPerBuyer';

/** What is wrong, and the field to mark and focus. */
export interface DiscountProblem {
  field: DiscountField;
  message: string;
}

/** The first thing to fix before the form is sent, or null. Payments checks it all again. */
export function validationProblem(values: DiscountFormValues): DiscountProblem | null {
  if (!DISCOUNT_CODE_PATTERN.test(values.code.trim()))
    return { field: 'code', message: 'A code is 3 to 32 letters, digits, - or _' };
  if (values.kind === 'percent' && !isWholeNumber(values.percentOff, 1, 100))
    return {
      field: 'percentOff',
      message: 'The percentage off must be a whole number from 1 to 100',
    };
  if (values.kind === 'fixed') {
    const problem = amountMessage(values.amountOff, values.currency);
    if (problem) return { field: 'amountOff', message: problem };
  }
  if (!values.allProducts && values.productIds.length === 0)
    return {
      field: 'products',
      message: 'Choose at least one product, or apply the code to all products',
    };
  if (values.startsAt && values.endsAt && new Date(values.endsAt) <= new Date(values.startsAt))
    return { field: 'endsAt', message: 'The end must be after the start' };
  for (const field of ['maxUses', 'maxUsesPerBuyer'] as const) {
    const limit = values[field];
    if (limit.trim() && !isWholeNumber(limit, 1, 1_000_000))
      return { field, message: 'A limit is a whole number of at least 1' };
  }
  return null;
}

export const validationMessage = (values: DiscountFormValues): string | null =>
  validationProblem(values)?.message ?? null;

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

/** What to fix before the form is sent, or null. Payments checks it all again. */
export function validationMessage(values: DiscountFormValues): string | null {
  if (!DISCOUNT_CODE_PATTERN.test(values.code.trim()))
    return 'A code is 3 to 32 letters, digits, - or _';
  if (values.kind === 'percent' && !isWholeNumber(values.percentOff, 1, 100))
    return 'The percentage off must be a whole number from 1 to 100';
  if (values.kind === 'fixed') {
    const problem = amountMessage(values.amountOff, values.currency);
    if (problem) return problem;
  }
  if (!values.allProducts && values.productIds.length === 0)
    return 'Choose at least one product, or apply the code to all products';
  if (values.startsAt && values.endsAt && new Date(values.endsAt) <= new Date(values.startsAt))
    return 'The end must be after the start';
  for (const limit of [values.maxUses, values.maxUsesPerBuyer]) {
    if (limit.trim() && !isWholeNumber(limit, 1, 1_000_000))
      return 'A limit is a whole number of at least 1';
  }
  return null;
}

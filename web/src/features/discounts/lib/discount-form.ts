import type { DiscountCode, DiscountCodeRequest, DiscountKind } from '@lockdrop/contracts';
import { fromLocalInput, toLocalInput } from './local-time';

/** The create/edit form as typed: numbers and dates stay text until the form is sent. */
export interface DiscountFormValues {
  code: string;
  kind: DiscountKind;
  percentOff: string;
  amountOff: string;
  currency: string;
  /** true: every product of the seller, now and later; false: `productIds`. */
  allProducts: boolean;
  productIds: string[];
  /** `<input type="datetime-local">` values in the browser's time zone; '' for none. */
  startsAt: string;
  endsAt: string;
  maxUses: string;
  maxUsesPerBuyer: string;
  active: boolean;
}

export const emptyValues = (currency = 'USD'): DiscountFormValues => ({
  code: '',
  kind: 'percent',
  percentOff: '',
  amountOff: '',
  currency,
  allProducts: true,
  productIds: [],
  startsAt: '',
  endsAt: '',
  maxUses: '',
  maxUsesPerBuyer: '',
  active: true,
});

export const valuesOf = (code: DiscountCode): DiscountFormValues => ({
  code: code.code,
  kind: code.kind,
  percentOff: code.percentOff === null ? '' : String(code.percentOff),
  amountOff: code.amountOff ?? '',
  currency: code.currency ?? 'USD',
  allProducts: code.productIds === null,
  productIds: code.productIds ?? [],
  startsAt: toLocalInput(code.startsAt),
  endsAt: toLocalInput(code.endsAt),
  maxUses: code.maxUses === null ? '' : String(code.maxUses),
  maxUsesPerBuyer: code.maxUsesPerBuyer === null ? '' : String(code.maxUsesPerBuyer),
  active: code.active,
});

const limitOf = (text: string) => (text.trim() ? Number(text) : null);

/** What PUT/POST /api/discount-codes takes. */
export function toRequest(values: DiscountFormValues): DiscountCodeRequest {
  const percent = values.kind === 'percent';
  return {
    code: values.code.trim(),
    kind: values.kind,
    percentOff: percent ? Number(values.percentOff) : null,
    amountOff: percent ? null : values.amountOff.trim(),
    currency: percent ? null : values.currency,
    productIds: values.allProducts ? null : values.productIds,
    startsAt: fromLocalInput(values.startsAt),
    endsAt: fromLocalInput(values.endsAt),
    maxUses: limitOf(values.maxUses),
    maxUsesPerBuyer: limitOf(values.maxUsesPerBuyer),
    active: values.active,
  };
}

/** A saved code sent back whole, e.g. with `active` flipped by the list's toggle. */
export const requestOf = (code: DiscountCode): DiscountCodeRequest => ({
  code: code.code,
  kind: code.kind,
  percentOff: code.percentOff,
  amountOff: code.amountOff,
  currency: code.currency,
  productIds: code.productIds,
  startsAt: code.startsAt,
  endsAt: code.endsAt,
  maxUses: code.maxUses,
  maxUsesPerBuyer: code.maxUsesPerBuyer,
  active: code.active,
});

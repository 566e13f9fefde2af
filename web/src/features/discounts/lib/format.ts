import type { DiscountCode } from '@lockdrop/contracts';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Jan 5, 2026, 9:30 AM" in the browser's zone; "—" for a code with no such date. */
export const formatDateTime = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');

/** "3", or "3 of 10" when the code has a total limit. */
export const usesOf = ({ uses, maxUses }: Pick<DiscountCode, 'uses' | 'maxUses'>) =>
  maxUses === null ? String(uses) : `${uses} of ${maxUses}`;

/** "All products", "1 product", "3 products". */
export const appliesTo = ({ productIds }: Pick<DiscountCode, 'productIds'>) =>
  productIds === null
    ? 'All products'
    : `${productIds.length} ${productIds.length === 1 ? 'product' : 'products'}`;

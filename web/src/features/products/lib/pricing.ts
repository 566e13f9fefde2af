import type { Pricing } from '../types';

/** "$19.99", "$19.99/month", "$199.99/year". */
export function priceLabel(formatted: string, pricing: Pricing): string {
  if (pricing.type === 'one_time') return formatted;
  return `${formatted}/${pricing.interval === 'yearly' ? 'year' : 'month'}`;
}

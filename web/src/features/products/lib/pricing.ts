import type { Pricing } from '../types';

/** "$19.99", "$19.99 per month", "$199.99 per year". */
export function priceLabel(formatted: string, pricing: Pricing): string {
  if (pricing.type === 'one_time') return formatted;
  return `${formatted} per ${pricing.interval === 'yearly' ? 'year' : 'month'}`;
}

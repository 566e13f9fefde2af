import type { Pricing, Product } from '@lockdrop/contracts';

/*
 * How a price reads wherever the app shows one (product page, the seller's cards, the
 * dashboard's lists), so pay what you want says the same thing everywhere.
 */

/** "$19.99", "$19.99 per month", "$199.99 per year". */
export function priceLabel(formatted: string, pricing: Pricing): string {
  if (pricing.type === 'one_time') return formatted;
  return `${formatted} per ${pricing.interval === 'yearly' ? 'year' : 'month'}`;
}

/** Pay what you want, honestly: "$2.00+ (pay what you want)", or any amount when the minimum is 0. */
export function payWhatYouWantLabel(minimumMinor: number, minimumFormatted: string): string {
  return minimumMinor === 0 ? 'Pay what you want' : `${minimumFormatted}+ (pay what you want)`;
}

/** A product's price in one line: by its minimum when the buyer chooses, else per interval. */
export function productPriceLabel({
  priceFormatted,
  pricing,
  payWhatYouWant,
}: Pick<Product, 'priceFormatted' | 'pricing' | 'payWhatYouWant'>): string {
  return payWhatYouWant
    ? payWhatYouWantLabel(payWhatYouWant.minimumMinor, payWhatYouWant.minimumFormatted)
    : priceLabel(priceFormatted, pricing);
}

import type { Product } from '@lockdrop/contracts';
import type { ComponentType } from 'react';

/** What the form needs of the seller's products, which the route brings from the products feature. */
export type SellerProduct = Pick<
  Product,
  'id' | 'title' | 'currency' | 'pricing' | 'payWhatYouWant'
>;

/** The app's currency picker (the products feature's, passed in by the route). */
export type CurrencySelectComponent = ComponentType<{
  id: string;
  label: string;
  value: string;
  onChange: (currency: string) => void;
}>;

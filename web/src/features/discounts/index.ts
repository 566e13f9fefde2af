/** The discounts feature's public surface: the seller's /dashboard/discounts screen. */
export { DiscountsScreen } from './components/discounts-screen';
export type { CurrencySelectComponent, SellerProduct } from './types';

/** What other features read from products: the signed-in seller's list (one query key for it). */
export { useMyProducts, myProductsQueryOptions } from './api/get-my-products';
export type { Product } from './types';

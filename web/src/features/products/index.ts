/** What other features read from products: the seller's list and upload usage (one query key each). */
export { useMyProducts, myProductsQueryOptions } from './api/get-my-products';
export { useUploadUsage } from './api/get-upload-usage';
export type { Product } from './types';
export { SampleProductForm } from './components/sample-product-form';
export { ShareLinkPanel } from './components/share-link-panel';

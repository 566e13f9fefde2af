/** The brand feature's public surface: the seller's brand settings and their public store page. */
export { BrandSection } from './components/brand-section';
export { StorePage } from './components/store-page';
export { useStore } from './api/store';
